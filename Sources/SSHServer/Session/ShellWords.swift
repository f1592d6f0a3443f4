/// Splits a command line into words as a POSIX shell does before expansion: blanks separate
/// words, 'single quotes' keep everything, "double quotes" keep all but `\"`, `\\`, `\$` and
/// `` \` `` escapes, and a backslash outside quotes keeps the next character. Nothing is expanded.
enum ShellWords {
    static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var current: String?
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if " \t\n".contains(character) {
                if let word = current { words.append(word) }
                current = nil
                continue
            }
            var word = current ?? ""
            switch character {
            case "'":
                while true {
                    guard let next = iterator.next() else { return nil }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                while true {
                    guard let next = iterator.next() else { return nil }
                    if next == "\"" { break }
                    guard next == "\\" else {
                        word.append(next)
                        continue
                    }
                    guard let escaped = iterator.next() else { return nil }
                    if !["\"", "\\", "$", "`", "\n"].contains(escaped) { word.append("\\") }
                    if escaped != "\n" { word.append(escaped) }
                }
            case "\\":
                guard let escaped = iterator.next() else { return nil }
                if escaped != "\n" { word.append(escaped) }
            default:
                word.append(character)
            }
            current = word
        }
        if let word = current { words.append(word) }
        return words
    }
}
