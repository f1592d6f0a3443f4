import Foundation

/// A JSON import file read one entry at a time: the elements of its top-level array, or of the
/// array that one member of its top-level object holds (`requests`, `records`). Only the
/// boundaries are found here (strings, nesting and the commas between entries); each entry is
/// parsed and checked by `JSONSerialization` on its own. So the file is never held as one tree
/// (a parsed tree takes 40 to 60 times the text's size), and an entry past
/// ``ImportLimits/maximumEntryBytes`` is skipped unparsed.
enum JSONEntries {
    /// An entry or a member's value: parsed, or past the entry bound and skipped.
    enum Value {
        case parsed(Any)
        case tooLong
    }

    enum Failure: Error, Equatable {
        /// Not JSON at all (a value cut short, a missing comma, nothing).
        case notJSON
        /// JSON, but one value that is neither an array nor an object.
        case notAContainer
    }

    /// What the file was, once it is read (or stopped).
    enum Shape: Equatable {
        case array
        /// An object; `listFound` when its member `list` held an array.
        case object(listFound: Bool)
    }

    /// Reads `data`, a UTF-8 file (a byte-order mark is skipped). Every member of a top-level
    /// object other than the `list` array goes to `member`, in the file's order; each entry of
    /// the list (the top-level array, or the object's `list` member) goes to `entry` with its
    /// index, which returns false to stop reading there.
    static func read(
        _ data: Data, list: String, member: (String, Value) -> Void, entry: (Int, Value) -> Bool
    ) -> Result<Shape, Failure> {
        data.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes)
            do throws(Failure) {
                return .success(try scanner.file(list: list, member: member, entry: entry))
            } catch {
                return .failure(error)
            }
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), comma = UInt8(ascii: ",")
        private static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
        private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]"), colon = UInt8(ascii: ":")

        private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        private mutating func skipSpace() {
            while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        }

        mutating func file(list: String, member: (String, Value) -> Void, entry: (Int, Value) -> Bool) throws(Failure) -> Shape {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            skipSpace()
            let shape: Shape
            switch current {
            case Self.openBracket:
                guard try array(entry) else { return .array }
                shape = .array
            case Self.openBrace:
                let (listFound, goOn) = try object(list: list, member: member, entry: entry)
                shape = .object(listFound: listFound)
                guard goOn else { return shape }
            default:
                throw loneValue()
            }
            skipSpace()
            guard position == bytes.count else { throw .notJSON }
            return shape
        }

        /// After `[`: each element to `entry`. False when `entry` stopped the reading.
        private mutating func array(_ entry: (Int, Value) -> Bool) throws(Failure) -> Bool {
            position += 1
            skipSpace()
            if current == Self.closeBracket {
                position += 1
                return true
            }
            var index = 0
            while true {
                guard entry(index, try value()) else { return false }
                index += 1
                skipSpace()
                switch current {
                case Self.comma:
                    position += 1
                    skipSpace()
                case Self.closeBracket:
                    position += 1
                    return true
                default: throw .notJSON
                }
            }
        }

        /// After `{`: each member to `member`, but the first `list` that holds an array, whose
        /// elements go to `entry`. Whether that array was found, and false when `entry` stopped.
        private mutating func object(
            list: String, member: (String, Value) -> Void, entry: (Int, Value) -> Bool
        ) throws(Failure) -> (listFound: Bool, goOn: Bool) {
            position += 1
            skipSpace()
            var listFound = false
            if current == Self.closeBrace {
                position += 1
                return (false, true)
            }
            while true {
                guard current == Self.quote else { throw .notJSON }
                let keyStart = position
                let key: String
                switch try value() {
                case let .parsed(parsed as String): key = parsed
                case .parsed: throw .notJSON
                case .tooLong:
                    // Named by its start, which is enough to say it is not a key this reads.
                    key = String(decoding: bytes[(keyStart + 1)..<(keyStart + 65)], as: UTF8.self) + "…"
                }
                skipSpace()
                guard current == Self.colon else { throw .notJSON }
                position += 1
                skipSpace()
                if key == list, !listFound, current == Self.openBracket {
                    listFound = true
                    guard try array(entry) else { return (true, false) }
                } else {
                    member(key, try value())
                }
                skipSpace()
                switch current {
                case Self.comma:
                    position += 1
                    skipSpace()
                case Self.closeBrace:
                    position += 1
                    return (listFound, true)
                default: throw .notJSON
                }
            }
        }

        /// The value that starts at the position, parsed; `.tooLong`, unparsed, when it is longer
        /// than the entry bound.
        private mutating func value() throws(Failure) -> Value {
            let start = position
            try skipValue()
            guard position - start <= ImportLimits.maximumEntryBytes else { return .tooLong }
            let text = Data(bytes[start..<position])
            guard let parsed = try? JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed]) else { throw .notJSON }
            return .parsed(parsed)
        }

        /// Moves past the value that starts at the position: a string, an array or object (to
        /// its matching end; `JSONSerialization` checks what is inside), or a number or literal.
        private mutating func skipValue() throws(Failure) {
            guard let first = current else { throw .notJSON }
            switch first {
            case Self.quote:
                try skipString()
            case Self.openBrace, Self.openBracket:
                var depth = 0
                while position < bytes.count {
                    let byte = bytes[position]
                    if byte == Self.quote {
                        try skipString()
                        continue
                    }
                    if byte == Self.openBrace || byte == Self.openBracket {
                        depth += 1
                    } else if byte == Self.closeBrace || byte == Self.closeBracket {
                        depth -= 1
                    }
                    position += 1
                    if depth == 0 { return }
                }
                throw .notJSON
            default:
                let start = position
                while position < bytes.count {
                    let byte = bytes[position]
                    if byte == Self.comma || byte == Self.closeBracket || byte == Self.closeBrace || byte == Self.colon || Self.isSpace(byte) {
                        break
                    }
                    position += 1
                }
                if position == start { throw .notJSON }
            }
        }

        /// Moves past the string that starts at the position (its escapes are `JSONSerialization`'s
        /// to check; here a backslash only keeps the next byte from ending it).
        private mutating func skipString() throws(Failure) {
            position += 1
            while position < bytes.count {
                let byte = bytes[position]
                if byte == Self.backslash {
                    position += 2
                } else {
                    position += 1
                    if byte == Self.quote { return }
                }
            }
            throw .notJSON
        }

        /// A file that starts with neither `[` nor `{`: one other JSON value, or not JSON.
        private mutating func loneValue() -> Failure {
            let start = position
            guard (try? skipValue()) != nil, position - start <= ImportLimits.maximumEntryBytes else { return .notJSON }
            let end = position
            skipSpace()
            guard position == bytes.count,
                (try? JSONSerialization.jsonObject(with: Data(bytes[start..<end]), options: [.fragmentsAllowed])) != nil
            else { return .notJSON }
            return .notAContainer
        }
    }
}
