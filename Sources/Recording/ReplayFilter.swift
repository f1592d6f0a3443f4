/// What a cast may send to the terminal that plays it: drawing, and nothing that reaches past
/// the screen. A cast is a file from anywhere, and its output goes to a real terminal, so the
/// sequences a hostile file could abuse are taken out as it plays (stateful: a sequence may be
/// cut across events):
///
/// - kept: printable text; BS, HT, LF, VT, FF, CR, BEL, SO, SI; CSI cursor movement, erasing,
///   scrolling, insert/delete, tab stops, SGR, scroll margins, save/restore cursor, the cursor's
///   style, soft reset; DEC private modes 6 (origin), 7 (wrap), 12 (blink), 25 (cursor shown),
///   2026 (synchronized output); ESC 7, 8, D, E, H, M and character-set choices (ESC ( 0 …).
/// - removed: every OSC (clipboard writes with 52, titles, hyperlinks, colours, notifications),
///   DCS, APC (kitty graphics), PM and SOS strings; queries whose answers the terminal would
///   type back (device attributes, status and cursor reports, DECRQM, window reports, XTVERSION)
///   and window operations; other private modes (mouse and focus reporting, bracketed paste,
///   the alternate screen the player owns, cursor keys) and `>`/`<`/`=` sequences (key
///   encodings); ESC c (full reset), ESC Z, 8-bit-control switches; other C0 controls (ENQ's
///   answerback among them), DEL and C1 controls (U+0080–U+009F).
public struct ReplayFilter: Sendable {
    private enum State: Sendable {
        case ground
        case escape
        case escapeIntermediate(Unicode.Scalar)
        case controlSequence
        /// Inside an OSC, DCS, APC, PM or SOS string; `afterEscape` when its last scalar was ESC.
        case string(afterEscape: Bool)
    }

    /// A control sequence longer than this is dropped whole (no terminal needs more).
    static let maximumSequenceLength = 64

    private var state = State.ground
    private var sequence: [Unicode.Scalar] = []
    private var overlong = false

    public init() {}

    /// `text` with what may not be played taken out; what an unfinished sequence at its end
    /// becomes is decided by the next call.
    public mutating func filter(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if case .ground = state {
                // Runs of plain text are copied whole; only controls go through the machine.
                var end = index
                while end < scalars.endIndex, !Self.isControl(scalars[end]) { scalars.formIndex(after: &end) }
                if end > index {
                    output += Substring(scalars[index..<end])
                    index = end
                    continue
                }
            }
            take(scalars[index], into: &output.unicodeScalars)
            scalars.formIndex(after: &index)
        }
        return output
    }

    /// C0, DEL and C1: where the machine has something to decide.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private mutating func take(_ scalar: Unicode.Scalar, into output: inout String.UnicodeScalarView) {
        let value = scalar.value
        switch state {
        case .ground:
            ground(scalar, into: &output)
        case .escape:
            switch value {
            case 0x5B:  // [
                state = .controlSequence
                sequence = []
                overlong = false
            case 0x5D, 0x50, 0x5F, 0x5E, 0x58:  // ] P _ ^ X
                state = .string(afterEscape: false)
            case 0x1B:
                state = .escape
            case 0x20...0x2F:
                state = .escapeIntermediate(scalar)
            case 0x30...0x7E:
                state = .ground
                if "78DEHM".unicodeScalars.contains(scalar) {
                    output.append("\u{1B}")
                    output.append(scalar)
                }
            default:
                // A control or anything else ends the escape (dropped) and is taken as ground.
                state = .ground
                ground(scalar, into: &output)
            }
        case .escapeIntermediate(let intermediate):
            switch value {
            case 0x30...0x7E:
                state = .ground
                // Character sets for G0–G3 (the line-drawing set curses uses), and ESC # 3–6
                // (double-size lines); ESC % (encodings), ESC SP (8-bit controls), ESC # 8 are not.
                let charset = "()*+-./".unicodeScalars.contains(intermediate)
                let lineSize = intermediate == "#" && "3456".unicodeScalars.contains(scalar)
                if charset || lineSize {
                    output.append("\u{1B}")
                    output.append(intermediate)
                    output.append(scalar)
                }
            case 0x1B:
                state = .escape
            case 0x20...0x2F:
                break  // a second intermediate: nothing kept here takes one, the final drops it
            default:
                state = .ground
                ground(scalar, into: &output)
            }
        case .controlSequence:
            switch value {
            case 0x40...0x7E:
                state = .ground
                if !overlong, let kept = Self.keptControlSequence(sequence, final: scalar) {
                    output.append(contentsOf: "\u{1B}[".unicodeScalars)
                    output.append(contentsOf: kept.unicodeScalars)
                }
                sequence = []
            case 0x20...0x3F:
                if sequence.count < Self.maximumSequenceLength { sequence.append(scalar) } else { overlong = true }
            case 0x1B:
                sequence = []
                state = .escape
            case 0x18, 0x1A:  // CAN, SUB: the terminal would abandon the sequence
                sequence = []
                state = .ground
            default:
                // Not part of any control sequence: it is abandoned (a terminal executes a C0
                // control met inside one; these are judged as on the ground).
                sequence = []
                state = .ground
                ground(scalar, into: &output)
            }
        case .string(let afterEscape):
            switch value {
            // BEL ends an OSC, ST (8-bit, or ESC \) any string; CAN and SUB abandon one.
            case 0x07, 0x18, 0x1A, 0x9C,
                0x5C where afterEscape:
                state = .ground
            case 0x1B:
                state = .string(afterEscape: true)
            default:
                if afterEscape {
                    // ESC then something else starts a new sequence: the string is over.
                    state = .escape
                    take(scalar, into: &output)
                } else {
                    state = .string(afterEscape: false)
                }
            }
        }
    }

    private mutating func ground(_ scalar: Unicode.Scalar, into output: inout String.UnicodeScalarView) {
        switch scalar.value {
        case 0x1B:
            state = .escape
        case 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F:
            output.append(scalar)
        case 0x00...0x1F, 0x7F, 0x80...0x9F:
            break
        default:
            output.append(scalar)
        }
    }

    /// DEC private modes a cast may set or reset.
    static let keptPrivateModes: Set<Int> = [6, 7, 12, 25, 2026]
    /// CSI finals kept with no prefix and no intermediate (SM/RM `h`/`l` only for mode 4).
    private static let keptFinals = Set("@ABCDEFGHIJKLMPSTXZ`abdefgmrsu".unicodeScalars)

    /// The part after `ESC [` to send, or nil to drop the sequence.
    static func keptControlSequence(_ body: [Unicode.Scalar], final: Unicode.Scalar) -> String? {
        let prefix = body.first.flatMap { "<=>?".unicodeScalars.contains($0) ? $0 : nil }
        let rest = prefix == nil ? body[...] : body.dropFirst()
        let intermediates = rest.drop { (0x30...0x3F).contains($0.value) }
        let parameters = String(String.UnicodeScalarView(rest.prefix(rest.count - intermediates.count)))
        // Parameter bytes after an intermediate make the sequence malformed.
        guard intermediates.allSatisfy({ (0x20...0x2F).contains($0.value) }) else { return nil }
        let whole = String(String.UnicodeScalarView(body)) + String(final)
        switch (prefix, intermediates.count) {
        case (nil, 0):
            if final == "h" || final == "l" {
                return parameters == "4" ? whole : nil
            }
            return keptFinals.contains(final) ? whole : nil
        case (nil, 1):
            let intermediate = intermediates.first
            if intermediate == " " && final == "q" { return whole }  // the cursor's style
            if intermediate == "!" && final == "p" { return whole }  // soft reset
            return nil
        case ("?", 0):
            if final == "J" || final == "K" { return whole }  // selective erase
            guard final == "h" || final == "l" else { return nil }
            let modes = parameters.split(separator: ";").compactMap { Int($0) }.filter(keptPrivateModes.contains)
            guard !modes.isEmpty else { return nil }
            return "?" + modes.map(String.init).joined(separator: ";") + String(final)
        default:
            return nil
        }
    }
}
