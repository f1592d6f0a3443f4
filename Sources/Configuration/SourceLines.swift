/// Where each key of a TOML text is written, for problems said by line. TOMLKit gives the line of
/// a syntax error but not of a value, so this scans the text itself (already valid TOML when it
/// is asked): table headers, `key =` at the start of a line, and each string inside a value.
struct SourceLines {
    /// The text's lines, without their line feeds.
    let lines: [Substring]
    /// The first line of each dotted key path (a header's path too).
    private(set) var keyLines: [[String]: Int] = [:]
    /// The line each element of an array value starts on, in order.
    private(set) var elementLines: [[String]: [Int]] = [:]

    var count: Int { lines.count }

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        scan()
    }

    func firstLine(containing character: Character) -> Int? {
        lines.firstIndex { $0.contains(character) }.map { $0 + 1 }
    }

    /// The line of `path`, else of its longest prefix written (an inline table's), else 0.
    func line(of path: [String]) -> Int {
        var path = path
        while !path.isEmpty {
            if let line = keyLines[path] { return line }
            path.removeLast()
        }
        return 0
    }

    /// Names in the order the file writes them (TOMLKit's tables are sorted by name).
    func ordered(_ names: [String], under path: [String]) -> [String] {
        names.sorted { (line(of: path + [$0]), $0) < (line(of: path + [$1]), $1) }
    }

    /// The line of the `index`th element of the array at `path`, else the key's own line.
    func line(ofElement index: Int, in path: [String]) -> Int {
        if let lines = elementLines[path], lines.indices.contains(index) { return lines[index] }
        return line(of: path)
    }

    // MARK: - Scanning

    private mutating func scan() {
        var scanner = Scanner(lines: lines)
        var table: [String] = []
        while !scanner.isAtEnd {
            scanner.skipBlanksAndComments()
            guard !scanner.isAtEnd else { break }
            let line = scanner.line
            if scanner.peek == "[" {
                scanner.advance()
                let isArray = scanner.peek == "["
                if isArray { scanner.advance() }
                table = scanner.keyPath()
                if keyLines[table] == nil { keyLines[table] = line }
                scanner.nextLine()
            } else {
                let key = scanner.keyPath()
                guard !key.isEmpty, scanner.peek == "=" else {
                    scanner.nextLine()
                    continue
                }
                scanner.advance()
                let path = table + key
                if keyLines[path] == nil { keyLines[path] = line }
                let elements = scanner.value()
                if elementLines[path] == nil { elementLines[path] = elements }
            }
        }
    }

    /// A cursor over the lines, by character.
    private struct Scanner {
        let lines: [[Character]]
        var row = 0
        var column = 0

        init(lines: [Substring]) { self.lines = lines.map(Array.init) }

        var isAtEnd: Bool { row >= lines.count }
        /// 1-based.
        var line: Int { row + 1 }
        var peek: Character? { isAtEnd || column >= lines[row].count ? nil : lines[row][column] }
        var isAtLineEnd: Bool { isAtEnd || column >= lines[row].count }

        mutating func advance() {
            guard !isAtEnd else { return }
            if column < lines[row].count { column += 1 } else { nextLine() }
        }

        mutating func nextLine() {
            row += 1
            column = 0
        }

        mutating func skipSpaces() {
            while let c = peek, c == " " || c == "\t" || c == "\r" { advance() }
        }

        /// Blank lines, spaces and comments, across lines.
        mutating func skipBlanksAndComments() {
            while !isAtEnd {
                skipSpaces()
                if peek == "#" || isAtLineEnd { nextLine() } else { return }
            }
        }

        /// A dotted key: bare, "basic" or 'literal' parts; stops before `=` or `]`.
        mutating func keyPath() -> [String] {
            var parts: [String] = []
            while true {
                skipSpaces()
                guard let c = peek else { return parts }
                if c == "\"" || c == "'" {
                    advance()
                    parts.append(quoted(by: c, multiline: false))
                } else if c.isBareKeyCharacter {
                    var bare = ""
                    while let c = peek, c.isBareKeyCharacter {
                        bare.append(c)
                        advance()
                    }
                    parts.append(bare)
                } else {
                    return parts
                }
                skipSpaces()
                guard peek == "." else { return parts }
                advance()
            }
        }

        /// A value up to the end of its line (arrays and inline tables may go on across lines):
        /// when it is an array, the line each of its elements starts on.
        mutating func value() -> [Int] {
            var elements: [Int] = []
            var depth = 0
            // In an array (depth 1, opened by `[`), after `[` or `,`: the next token starts an element.
            var expectsElement = false
            var isArray = false
            while !isAtEnd {
                guard let c = peek else {
                    nextLine()
                    if depth == 0 { return elements }
                    continue
                }
                if c == " " || c == "\t" || c == "\r" {
                    advance()
                    continue
                }
                if c == "#" {
                    nextLine()
                    if depth == 0 { return elements }
                    continue
                }
                if expectsElement, depth == 1, c != "]", c != "," {
                    elements.append(line)
                    expectsElement = false
                }
                switch c {
                case "[", "{":
                    if depth == 0, c == "[" {
                        isArray = true
                        expectsElement = true
                    }
                    depth += 1
                    advance()
                case "]", "}":
                    depth -= 1
                    advance()
                    if depth <= 0 {
                        nextLine()
                        return elements
                    }
                case ",":
                    if depth == 1, isArray { expectsElement = true }
                    advance()
                case "\"", "'":
                    let triple = startsTriple(c)
                    for _ in 0..<(triple ? 3 : 1) { advance() }
                    _ = quoted(by: c, multiline: triple)
                    if depth == 0 {
                        nextLine()
                        return elements
                    }
                default:
                    advance()
                }
            }
            return elements
        }

        private func startsTriple(_ quote: Character) -> Bool {
            guard !isAtEnd, column + 2 < lines[row].count else { return false }
            return lines[row][column + 1] == quote && lines[row][column + 2] == quote
        }

        /// After the opening quote(s): the text up to the closing one(s) or the end. A "basic"
        /// string's escapes are kept simple; a 'literal' one has none.
        private mutating func quoted(by quote: Character, multiline: Bool) -> String {
            var text = ""
            while !isAtEnd {
                guard let c = peek else {
                    guard multiline else { return text }
                    text.append("\n")
                    nextLine()
                    continue
                }
                if quote == "\"" && c == "\\" {
                    advance()
                    if let escaped = peek {
                        switch escaped {
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        default: text.append(escaped)
                        }
                        advance()
                    }
                    continue
                }
                if c == quote && (!multiline || startsTriple(quote)) {
                    for _ in 0..<(multiline ? 3 : 1) { advance() }
                    return text
                }
                text.append(c)
                advance()
            }
            return text
        }
    }
}

extension Character {
    fileprivate var isBareKeyCharacter: Bool {
        isASCII && (isLetter || isNumber || self == "_" || self == "-")
    }
}
