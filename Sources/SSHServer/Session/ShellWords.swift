/// Splits a command line into words as a POSIX shell does before expansion: blanks separate
/// words, 'single quotes' keep everything, "double quotes" keep all but `\"`, `\\`, `\$` and
/// `` \` `` escapes, and a backslash outside quotes keeps the next character. Nothing is expanded.
enum ShellWords {
    static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    current.append(next)
                }
                if !closed { return nil }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { return nil }
                        if !["\"", "\\", "$", "`", "\n"].contains(escaped) { current.append("\\") }
                        if escaped != "\n" { current.append(escaped) }
                    } else {
                        current.append(next)
                    }
                }
                if !closed { return nil }
            case "\\":
                inWord = true
                guard let escaped = iterator.next() else { return nil }
                if escaped != "\n" { current.append(escaped) }
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
