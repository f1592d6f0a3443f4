/// How every engine's search reads what was typed: its words are the runs of letters and digits
/// (the SQLite full-text tokenizer's idea of a word, and the PostgreSQL configuration's), so
/// nothing typed is read as query syntax.
public enum SearchWords {
    public static func of(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}
