import TabShell

/// Turns the characters a terminal sends into keys, mouse events and pastes.
///
/// Pure and byte-exact: curses' keypad translation is off, so every escape sequence comes
/// through here and is framed by the ECMA-48 grammar — CSI (`ESC [`, parameters, intermediates,
/// one final byte 0x40–0x7E), SS3 (`ESC O` + one byte), the Linux console's `ESC [ [ A`..`E`,
/// and the string controls (DCS, OSC, APC, PM, SOS) up to their terminator. A sequence is
/// always consumed whole: one the table does not know does nothing, and never turns into
/// Esc followed by letters.
///
/// Time is the caller's: when input goes quiet while a sequence is open, the terminal calls
/// `timeOut()` (after `escapeDelay` for a lone Esc, `sequenceDelay` for a partial sequence).
public struct InputDecoder: Sendable {
    /// How long a lone Esc waits for the rest of a sequence before it counts as Esc.
    public static let escapeDelay: Duration = .milliseconds(25)
    /// How long an unfinished sequence may wait for its next byte (a slow link splits them)
    /// before it is dropped.
    public static let sequenceDelay: Duration = .milliseconds(250)
    /// Longer sequences are not keys: they are consumed and dropped.
    static let sequenceByteLimit = 64
    /// Replies (DCS, APC, …) longer than this are consumed and dropped.
    static let stringByteLimit = 4096

    private enum State: Sendable, Equatable {
        case ground
        /// ESC seen; `alt`: it followed another ESC (rxvt's Meta + key).
        case escape(alt: Bool)
        case csi(alt: Bool, body: [UInt8])
        case ss3(alt: Bool, body: [UInt8])
        /// The Linux console's `ESC [ [` before F1–F5's letter.
        case linuxFunction
        /// X10 mouse report: `ESC [ M` and three bytes.
        case x10Mouse([UInt32])
        /// DCS, OSC, APC, PM or SOS, up to BEL or `ESC \`.
        case string(introducer: Character, body: String, afterEscape: Bool)
    }

    /// What the decoder is waiting for, so the terminal knows how long to wait.
    public enum Waiting: Equatable, Sendable {
        case nothing
        /// A lone Esc: `escapeDelay`.
        case escape
        /// A partial sequence: `sequenceDelay`.
        case sequence
    }

    private var state = State.ground
    private var paste: PasteBuffer?

    public init() {}

    public var waiting: Waiting {
        switch state {
        case .ground: .nothing
        case .escape: .escape
        default: .sequence
        }
    }

    /// True between a paste's begin and end markers.
    public var isCollectingPaste: Bool { paste != nil }

    // MARK: - Feeding

    /// Decodes one character; returns what it completed (often nothing).
    public mutating func feed(_ scalar: Unicode.Scalar) -> [InputEvent] {
        switch state {
        case .ground: return ground(scalar)
        case let .escape(alt): return escape(scalar, alt: alt)
        case let .csi(alt, body): return csi(scalar, alt: alt, body: body)
        case let .ss3(alt, body): return ss3(scalar, alt: alt, body: body)
        case .linuxFunction: return linuxFunction(scalar)
        case let .x10Mouse(bytes): return x10Mouse(scalar, bytes: bytes)
        case let .string(introducer, body, afterEscape):
            return string(scalar, introducer: introducer, body: body, afterEscape: afterEscape)
        }
    }

    /// Input went quiet while a sequence was open: a lone Esc is the Esc key (two for ESC ESC),
    /// `ESC [` and `ESC O` alone are Esc and that character, and anything longer is dropped.
    public mutating func timeOut() -> [InputEvent] {
        let pending = state
        state = .ground
        guard paste == nil else { return [] }
        switch pending {
        case let .escape(alt): return alt ? [.key(.escape), .key(.escape)] : [.key(.escape)]
        case .csi(false, []): return [.key(.escape), .key(.character("["))]
        case .ss3(false, []): return [.key(.escape), .key(.character("O"))]
        default: return []
        }
    }

    /// Ends the paste in progress when its end marker never came (the terminal went silent),
    /// delivering what arrived. Nil when nothing was pasted.
    public mutating func finishPaste() -> InputEvent? {
        guard let text = paste?.text else { return nil }
        paste = nil
        if case .escape = state { state = .ground }
        return text.isEmpty ? nil : .key(.paste(text))
    }

    // MARK: - States

    private mutating func ground(_ scalar: Unicode.Scalar) -> [InputEvent] {
        if scalar == "\u{1B}" {
            state = .escape(alt: false)
            return []
        }
        if paste != nil {
            paste?.append(scalar)
            return []
        }
        return Self.plainKey(scalar).map { [.key($0)] } ?? []
    }

    /// A character outside any sequence: text, or the control key it is.
    static func plainKey(_ scalar: Unicode.Scalar) -> Key? {
        switch scalar.value {
        case 0x0A, 0x0D: return .enter
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(UInt8(0x60 + scalar.value))))
        // Ctrl-\ ] ^ _ — Ctrl-] is also the GS1 group separator scanners send.
        case 0x1C...0x1F: return .control(Character(Unicode.Scalar(UInt8(0x40 + scalar.value))))
        default: return scalar.isControlLike ? nil : .character(Character(scalar))
        }
    }

    private mutating func escape(_ scalar: Unicode.Scalar, alt: Bool) -> [InputEvent] {
        let prefix: [InputEvent] = alt && paste == nil ? [.key(.escape)] : []
        switch scalar {
        case "[":
            state = .csi(alt: alt, body: [])
            return []
        case "O":
            state = .ss3(alt: alt, body: [])
            return []
        case "P", "]", "_", "^", "X":
            state = .string(introducer: Character(scalar), body: "", afterEscape: false)
            return prefix
        case "\u{1B}":
            state = .escape(alt: true)
            return prefix
        default:
            state = .ground
            guard paste == nil else { return ground(scalar) }
            // The Linux console's Shift-Tab is ESC Tab.
            if scalar == "\t" { return prefix + [.key(.backTab)] }
            // Esc and then a key typed at once (or Alt + the key, which terminals send the same
            // way): both, in order, as curses delivered them. Only CSI u and modifyOtherKeys
            // reports, which say Alt outright, become `.alt`.
            return prefix + [.key(.escape)] + ground(scalar)
        }
    }

    private mutating func csi(_ scalar: Unicode.Scalar, alt: Bool, body: [UInt8]) -> [InputEvent] {
        let value = scalar.value
        if body.isEmpty && scalar == "[" {
            state = .linuxFunction
            return []
        }
        if body.isEmpty && scalar == "M" {
            state = .x10Mouse([])
            return []
        }
        // rxvt ends its Shift-modified keys with `$` (ESC [ 3 $), which the grammar calls an
        // intermediate; after digits alone it is the final byte.
        let endsWithDollar = scalar == "$" && !body.isEmpty && body.allSatisfy { (0x30...0x39).contains($0) }
        switch value {
        case 0x40...0x7E,
            0x24 where endsWithDollar:
            state = .ground
            guard body.count <= Self.sequenceByteLimit else { return [] }
            return complete(ControlSequence(introducer: .csi, body: body, final: UInt8(value)), alt: alt)
        case 0x20...0x3F:
            state = .csi(alt: alt, body: body.count > Self.sequenceByteLimit ? body : body + [UInt8(value)])
            return []
        default:
            // Not part of a sequence: the partial one is dropped and this character counts alone.
            state = .ground
            return ground(scalar)
        }
    }

    private mutating func ss3(_ scalar: Unicode.Scalar, alt: Bool, body: [UInt8]) -> [InputEvent] {
        let value = scalar.value
        switch value {
        case 0x30...0x3F where body.count < Self.sequenceByteLimit:
            state = .ss3(alt: alt, body: body + [UInt8(value)])
            return []
        case 0x40...0x7E:
            state = .ground
            return complete(ControlSequence(introducer: .ss3, body: body, final: UInt8(value)), alt: alt)
        default:
            state = .ground
            return ground(scalar)
        }
    }

    private mutating func linuxFunction(_ scalar: Unicode.Scalar) -> [InputEvent] {
        state = .ground
        guard paste == nil, ("A"..."E").contains(scalar) else { return [] }
        return [.key(.function(Int(scalar.value - 0x40)))]
    }

    private mutating func x10Mouse(_ scalar: Unicode.Scalar, bytes: [UInt32]) -> [InputEvent] {
        let bytes = bytes + [scalar.value]
        guard bytes.count == 3 else {
            state = .x10Mouse(bytes)
            return []
        }
        state = .ground
        guard paste == nil, bytes.allSatisfy({ (32...255).contains($0) }) else { return [] }
        return Self.mouse(button: Int(bytes[0]) - 32, column: Int(bytes[1]) - 33, row: Int(bytes[2]) - 33, pressed: true)
    }

    private mutating func string(_ scalar: Unicode.Scalar, introducer: Character, body: String, afterEscape: Bool) -> [InputEvent] {
        /// The whole reply with its terminator; nothing when it is too long or inside a paste.
        func reply(ending terminator: String) -> [InputEvent] {
            body.utf8.count <= Self.stringByteLimit && paste == nil ? [.reply("\u{1B}" + String(introducer) + body + terminator)] : []
        }
        if afterEscape {
            state = .ground
            // ESC \ is the terminator; ESC and anything else starts a new sequence.
            return reply(ending: "\u{1B}\\") + (scalar == "\\" ? [] : escape(scalar, alt: false))
        }
        switch scalar {
        case "\u{07}":
            state = .ground
            return reply(ending: "\u{07}")
        case "\u{1B}":
            state = .string(introducer: introducer, body: body, afterEscape: true)
        default:
            var body = body
            if body.utf8.count <= Self.stringByteLimit { body.unicodeScalars.append(scalar) }
            state = .string(introducer: introducer, body: body, afterEscape: false)
        }
        return []
    }

    // MARK: - Completed sequences

    private mutating func complete(_ sequence: ControlSequence, alt: Bool) -> [InputEvent] {
        if sequence.introducer == .csi && sequence.final == "~" && sequence.privateMarker == nil {
            switch sequence.number(0) {
            case 200:
                if paste == nil { paste = PasteBuffer() }
                return []
            case 201:
                return finishPaste().map { [$0] } ?? []
            default: break
            }
        }
        guard paste == nil else { return [] }  // keys inside a paste are pasted escape sequences
        if sequence.introducer == .csi && sequence.privateMarker == "<" && (sequence.final == "M" || sequence.final == "m") {
            guard let button = sequence.number(0), let column = sequence.number(1), let row = sequence.number(2) else { return [] }
            return Self.mouse(button: button, column: column - 1, row: row - 1, pressed: sequence.final == "M")
        }
        if sequence.privateMarker != nil {
            return [.reply(sequence.text)]  // device attributes and other answers
        }
        if sequence.introducer == .csi && sequence.final == "t" && sequence.intermediates.isEmpty {
            return [.reply(sequence.text)]  // window reports: the cell size in pixels (CSI 6;h;w t)
        }
        guard let key = SequenceKeys.key(for: sequence) else { return [] }
        return [.key(alt ? Self.addingAlt(to: key) : key)]
    }

    /// rxvt's Meta + a named key: ESC before the key's own sequence.
    private static func addingAlt(to key: Key) -> Key {
        switch key {
        case let .modified(base, modifiers): .modified(base, modifiers.union(.alt))
        case let .character(character): .alt(character)
        default: .modified(key, .alt)
        }
    }

    /// A mouse report: button 1 down is a click, the wheel scrolls, the rest (release, drag,
    /// other buttons) is nothing.
    private static func mouse(button: Int, column: Int, row: Int, pressed: Bool) -> [InputEvent] {
        guard pressed, row >= 0, column >= 0, button & 32 == 0 else { return [] }
        switch button & ~0b11100 {  // without Shift/Meta/Ctrl bits
        case 0: return [.click(row: row, column: column)]
        case 64: return [.wheel(WheelTurn(.up, row: row, column: column))]
        case 65: return [.wheel(WheelTurn(.down, row: row, column: column))]
        default: return []
        }
    }
}
