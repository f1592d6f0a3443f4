import Scanning

/// The shape of a TOML text, bounded before the parser sees it. TOMLKit's parser (toml++) and
/// the tables it builds recurse once per level of nesting: a 50,000-deep `[a.a.a…]` header, or
/// arrays and inline tables opened across thousands of short lines, ran the stack out (SIGSEGV,
/// in `config check` and at start). This scan is one pass with no recursion; it only counts, so
/// what it lets through is still the parser's to judge.
enum ConfigShape {
    /// The longest line, in bytes: a key (a quoted one too) is never longer.
    static let maximumLineBytes = 4096
    /// The deepest a value may sit: the parts of its table's header and of its dotted key, and
    /// each array and inline table around it with its keys' parts. config.toml needs 3.
    static let maximumDepth = 32

    /// The first line that breaks a bound, as a problem that keeps every default.
    static func problem(in text: String) -> ConfigProblem? {
        var scan = Scan(bytes: Array(text.utf8))
        return scan.run()
    }

    /// An array or an inline table a value is in.
    private struct Level {
        let isTable: Bool
        /// In an inline table: the parts of the key being read, or whose value this is.
        var keyParts = 0
        /// In an inline table: after `{` or `,` a key starts; after its `=`, its value.
        var readingKey: Bool
    }

    private enum Place {
        /// A line's start outside any value: a header, a key, a comment or nothing.
        case lineStart
        /// Inside `[a.b]` or `[[a.b]]`.
        case header
        /// After a header's `]`: only a comment may follow.
        case afterHeader
        /// A top-level key, before its `=`.
        case key
        /// A value (arrays and inline tables may go on across lines).
        case value
    }

    private struct Scan {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0
        var place = Place.lineStart
        var headerParts = 0
        var keyParts = 0
        var levels: [Level] = []
        /// One for each level, plus its key's parts.
        var levelDepth = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var depth: Int { headerParts + keyParts + levelDepth }

        mutating func run() -> ConfigProblem? {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A {
                    if let problem = newLine() { return problem }
                    continue
                }
                if let problem = structure(byte) { return problem }
            }
            return lineLength()
        }

        // MARK: - Lines

        private func lineLength() -> ConfigProblem? {
            index - lineStart > maximumLineBytes ? overlong() : nil
        }

        /// At a line feed (`index` on it): the line's length checked, the next line begun.
        private mutating func newLine() -> ConfigProblem? {
            if let problem = lineLength() { return problem }
            index += 1
            line += 1
            lineStart = index
            if levels.isEmpty {
                place = .lineStart
                keyParts = 0
            }
            return nil
        }

        /// Past the bytes up to the line feed (a comment, the rest of a header's line).
        private mutating func skipToLineEnd() {
            while index < bytes.count, bytes[index] != 0x0A { index += 1 }
        }

        // MARK: - Structure

        private mutating func structure(_ byte: UInt8) -> ConfigProblem? {
            switch byte {
            case 0x20, 0x09, 0x0D:
                index += 1
                return nil
            case UInt8(ascii: "#"):
                skipToLineEnd()
                return nil
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if place == .lineStart {
                    place = .key
                    keyParts = 1
                }
                return string(byte)
            default:
                break
            }
            index += 1
            switch place {
            case .lineStart:
                if byte == UInt8(ascii: "[") {
                    place = .header
                    headerParts = 1
                    return nil
                }
                place = .key
                keyParts = 1
                return nil
            case .header:
                if byte == UInt8(ascii: ".") {
                    headerParts += 1
                    return checkDepth()
                }
                if byte == UInt8(ascii: "]") { place = .afterHeader }
                return nil
            case .afterHeader:
                return nil
            case .key:
                if byte == UInt8(ascii: "=") {
                    place = .value
                } else if byte == UInt8(ascii: ".") {
                    keyParts += 1
                    return checkDepth()
                }
                return nil
            case .value:
                return value(byte)
            }
        }

        private mutating func value(_ byte: UInt8) -> ConfigProblem? {
            if var level = levels.last, level.isTable, level.readingKey {
                switch byte {
                case UInt8(ascii: "="):
                    level.readingKey = false
                case UInt8(ascii: "}"):
                    break
                case UInt8(ascii: "."):
                    level.keyParts += 1
                    levelDepth += 1
                default:
                    if level.keyParts == 0 {
                        level.keyParts = 1
                        levelDepth += 1
                    }
                }
                if byte != UInt8(ascii: "}") {
                    levels[levels.count - 1] = level
                    return checkDepth()
                }
            }
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                let isTable = byte == UInt8(ascii: "{")
                levels.append(Level(isTable: isTable, readingKey: isTable))
                levelDepth += 1
                return checkDepth()
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let level = levels.popLast() { levelDepth -= 1 + level.keyParts }
            case UInt8(ascii: ","):
                if var level = levels.last, level.isTable {
                    levelDepth -= level.keyParts
                    level.keyParts = 0
                    level.readingKey = true
                    levels[levels.count - 1] = level
                }
            default:
                break
            }
            return nil
        }

        /// A string from its opening quote (`index` on it): "basic", 'literal', and their
        /// triple-quoted multi-line forms, whose line feeds count as lines. In a key's place it
        /// is a key part, which the key's own count already holds.
        private mutating func string(_ quote: UInt8) -> ConfigProblem? {
            if var level = levels.last, level.isTable, level.readingKey, level.keyParts == 0 {
                level.keyParts = 1
                levelDepth += 1
                levels[levels.count - 1] = level
                if let problem = checkDepth() { return problem }
            }
            let isTriple = index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote
            let escapes = quote == UInt8(ascii: "\"")
            index += isTriple ? 3 : 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A {
                    // A single-line string left open: the parser says so; the line ends here.
                    guard isTriple else { return nil }
                    if let problem = lineLength() { return problem }
                    index += 1
                    line += 1
                    lineStart = index
                    continue
                }
                if index - lineStart >= maximumLineBytes { return overlong() }
                if escapes, byte == UInt8(ascii: "\\") {
                    // The escaped byte is skipped, except a line feed (a line-ending backslash).
                    index += index + 1 < bytes.count && bytes[index + 1] != 0x0A ? 2 : 1
                    continue
                }
                if byte == quote {
                    if !isTriple {
                        index += 1
                        return nil
                    }
                    if index + 2 < bytes.count, bytes[index + 1] == quote, bytes[index + 2] == quote {
                        index += 3
                        return nil
                    }
                }
                index += 1
            }
            return nil
        }

        private func overlong() -> ConfigProblem {
            ConfigProblem(line: line, "the line is longer than \(maximumLineBytes) bytes; every setting keeps its default.")
        }

        private func checkDepth() -> ConfigProblem? {
            guard depth > maximumDepth else { return nil }
            return ConfigProblem(
                line: line,
                "tables, keys, arrays and inline tables nest more than \(maximumDepth) deep here; every setting keeps its default.")
        }
    }
}
