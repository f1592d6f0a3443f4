// MARK: - Parsing a terminal's answers

extension TerminalReplies {
    /// Parses everything read from the terminal after `TerminalQuery` was written. Answers may
    /// arrive in any mix with typed keys; anything that is not an answer is kept, in order, in
    /// `unrelatedBytes`. Unknown answers (other DCS or APC strings) are dropped. Never fails:
    /// garbage gives empty answers.
    public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
        var replies = TerminalReplies()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == Ascii.escape, index + 1 < bytes.count else {
                replies.unrelatedBytes.append(bytes[index])
                index += 1
                continue
            }
            let body = index + 2
            switch bytes[index + 1] {
            case Ascii.leftBracket:
                guard let end = controlSequenceEnd(bytes, from: body) else {
                    replies.unrelatedBytes.append(contentsOf: bytes[index...])
                    return replies
                }
                if !replies.take(controlSequence: Array(bytes[body...end])) {
                    replies.unrelatedBytes.append(contentsOf: bytes[index...end])
                }
                index = end + 1
            case Ascii.underscore, Ascii.upperP:
                guard let (contentEnd, next) = stringEnd(bytes, from: body) else {
                    replies.unrelatedBytes.append(contentsOf: bytes[index...])
                    return replies
                }
                let content = Array(bytes[body..<contentEnd])
                if bytes[index + 1] == Ascii.underscore {
                    replies.take(applicationString: content)
                } else {
                    replies.take(deviceControlString: content)
                }
                index = next
            default:
                replies.unrelatedBytes.append(bytes[index])
                index += 1
            }
        }
        return replies
    }

    /// The index of a CSI's final byte: parameters 0x30–0x3F, intermediates 0x20–0x2F, final
    /// 0x40–0x7E. Nil when the sequence is cut off or malformed.
    private static func controlSequenceEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20...0x3F: index += 1
            case 0x40...0x7E: return index
            default: return nil
            }
        }
        return nil
    }

    /// Where a DCS or APC string's content ends and what follows its terminator (ESC \ or BEL).
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> (contentEnd: Int, next: Int)? {
        var index = start
        while index < bytes.count {
            if bytes[index] == Ascii.bell { return (index, index + 1) }
            if bytes[index] == Ascii.escape, index + 1 < bytes.count, bytes[index + 1] == Ascii.backslash {
                return (index, index + 2)
            }
            index += 1
        }
        return nil
    }

    /// Takes a CSI answer (bytes after `ESC [`, final byte included); false when it is not one.
    private mutating func take(controlSequence: [UInt8]) -> Bool {
        guard let final = controlSequence.last else { return false }
        var parameterBytes = controlSequence.dropLast()
        var prefix: UInt8?
        if let first = parameterBytes.first, first == Ascii.question || first == Ascii.greater {
            prefix = first
            parameterBytes = parameterBytes.dropFirst()
        }
        guard let numbers = Self.numbers(parameterBytes) else { return false }
        switch (prefix, final) {
        case (Ascii.question, Ascii.lowerC):
            primaryAttributes = numbers
        case (Ascii.greater, Ascii.lowerC):
            secondaryAttributes = numbers
        case (nil, Ascii.lowerT) where numbers.count == 3 && numbers[0] == 6:
            let (height, width) = (numbers[1], numbers[2])
            guard (1...1000).contains(height), (1...1000).contains(width) else { return true }
            cellPixelSize = CellPixelSize(width: width, height: height)
        default:
            return false
        }
        return true
    }

    /// "62;4;22" -> [62, 4, 22]; empty fields are skipped ("62;" is kitty's answer).
    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int]? {
        var result: [Int] = []
        for field in bytes.split(separator: Ascii.semicolon, omittingEmptySubsequences: true) {
            guard field.count <= 9, field.allSatisfy({ (Ascii.zero...Ascii.nine).contains($0) }) else { return nil }
            result.append(field.reduce(0) { $0 * 10 + Int($1 - Ascii.zero) })
        }
        return result
    }

    /// APC: kitty's graphics answer is "Gi=31;OK", or "Gi=31;ENOTSUPPORTED:…" on failure.
    private mutating func take(applicationString content: [UInt8]) {
        guard content.first == Ascii.upperG else { return }
        let text = String(decoding: content.dropFirst(), as: UTF8.self)
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return }
        let keys = parts[0].split(separator: ",")
        if keys.contains("i=31"), parts[1] == "OK" { kittyGraphics = true }
    }

    /// DCS: XTVERSION's answer is ">|name(version)".
    private mutating func take(deviceControlString content: [UInt8]) {
        guard content.count >= 2, content[0] == Ascii.greater, content[1] == Ascii.bar else { return }
        let text = String(decoding: content.dropFirst(2), as: UTF8.self)
        terminalVersion = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F })
    }
}

/// The bytes the parser looks for.
private enum Ascii {
    static let bell: UInt8 = 0x07
    static let escape: UInt8 = 0x1B
    static let leftBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let underscore = UInt8(ascii: "_")
    static let upperP = UInt8(ascii: "P")
    static let upperG = UInt8(ascii: "G")
    static let question = UInt8(ascii: "?")
    static let greater = UInt8(ascii: ">")
    static let bar = UInt8(ascii: "|")
    static let semicolon = UInt8(ascii: ";")
    static let lowerC = UInt8(ascii: "c")
    static let lowerT = UInt8(ascii: "t")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
}
