import Domain
import TabShell

extension TerminalAnswers {
    /// Takes one `InputEvent.reply` (the whole answer, introducer included) into the answers.
    /// Returns false when it is not an answer to `TerminalQuery` (another APC or DCS string, a
    /// report nobody asked for); such a reply changes nothing. Never fails on garbage.
    @discardableResult
    public mutating func take(_ reply: String) -> Bool {
        let bytes = Array(reply.utf8)
        guard bytes.count >= 3, bytes[0] == 0x1B else { return false }
        switch bytes[1] {
        case UInt8(ascii: "["):
            guard let final = bytes.last else { return false }
            return take(controlSequence: ControlSequence(introducer: .csi, body: Array(bytes[2..<(bytes.count - 1)]), final: final))
        case UInt8(ascii: "_"):
            return take(applicationString: Self.content(of: bytes))
        case UInt8(ascii: "P"):
            return take(deviceControlString: Self.content(of: bytes))
        case UInt8(ascii: "]"):
            return take(operatingSystemCommand: Self.content(of: bytes))
        default:
            return false
        }
    }

    /// What is between a string's introducer and its terminator (`ESC \` or BEL).
    private static func content(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        var end = bytes.count
        if bytes.last == 0x07 {
            end -= 1
        } else if end >= 4, bytes[end - 2] == 0x1B, bytes[end - 1] == UInt8(ascii: "\\") {
            end -= 2
        }
        return bytes[2..<max(2, end)]
    }

    private mutating func take(controlSequence sequence: ControlSequence) -> Bool {
        guard sequence.intermediates.isEmpty else { return false }
        let numbers = sequence.parameters.compactMap { $0.first ?? nil }
        // Every parameter must be a number that fits (kitty ends its list with an empty one).
        guard numbers.count == sequence.parameters.filter({ !($0.count == 1 && $0[0] == nil) }).count,
            numbers.allSatisfy({ (0...999_999).contains($0) })
        else { return false }
        switch (sequence.privateMarker, sequence.final) {
        case ("?", "c"):
            primaryAttributes = numbers
        case (">", "c"):
            secondaryAttributes = numbers
        case (nil, "t") where numbers.count == 3 && numbers[0] == 6:
            cellPixels = CellPixels(width: numbers[2], height: numbers[1])
        default:
            return false
        }
        return true
    }

    /// kitty's graphics answer: "Gi=31;OK", or "Gi=31;ENOTSUPPORTED:…" when it refuses.
    private mutating func take(applicationString content: ArraySlice<UInt8>) -> Bool {
        guard content.first == UInt8(ascii: "G") else { return false }
        let text = String(decoding: content.dropFirst(), as: UTF8.self)
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].split(separator: ",").contains("i=\(TerminalQuery.kittyImageID)") else { return false }
        kittyGraphics = parts[1] == "OK"
        return true
    }

    /// OSC 11's answer: "11;rgb:RRRR/GGGG/BBBB". Anything else (another OSC, a colour spec
    /// that is not `rgb:` with 1–4 hex digits a channel) is not taken.
    private mutating func take(operatingSystemCommand content: ArraySlice<UInt8>) -> Bool {
        guard content.count <= 40, content.starts(with: Array("11;".utf8)) else { return false }
        let spec = String(decoding: content.dropFirst(3), as: UTF8.self)
        guard let color = BackgroundColor(x11: Substring(spec)) else { return false }
        background = color
        return true
    }

    /// XTVERSION's answer: ">|name(version)". Only printable ASCII of it is kept.
    private mutating func take(deviceControlString content: ArraySlice<UInt8>) -> Bool {
        guard content.count >= 2, content.first == UInt8(ascii: ">"), content.dropFirst().first == UInt8(ascii: "|") else { return false }
        let name = String(String.UnicodeScalarView(content.dropFirst(2).filter { (0x20..<0x7F).contains($0) }.map { Unicode.Scalar($0) }))
        terminalVersion = String(name.prefix(80))
        return true
    }
}
