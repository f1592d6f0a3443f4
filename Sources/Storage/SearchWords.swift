/// How every engine's search reads what was typed: its words are the runs of letters and digits
/// (the SQLite full-text tokenizer's idea of a word, and the PostgreSQL configuration's), so
/// nothing typed is read as query syntax.
public enum SearchWords {
    public static func of(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        for character in text {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
