import TabShell

/// What each terminal family's key sequences stand for.
///
/// xterm (and everything that follows it: VTE, kitty, iTerm2, Windows Terminal, tmux,
/// screen), rxvt, the Linux console, PuTTY and the VT220 send the same keys as different
/// sequences; every alternate below was read from `infocmp` of those entries.
enum SequenceKeys {
    /// The key a CSI or SS3 sequence stands for, nil when it stands for none (focus reports,
    /// keypad Begin, unknown finals).
    static func key(for sequence: ControlSequence) -> Key? {
        guard sequence.intermediates.isEmpty else { return nil }
        switch sequence.introducer {
        case .ss3: return ss3Key(sequence)
        case .csi: return csiKey(sequence)
        }
    }

    /// The finals SS3 and CSI share: the arrows, Home and End, F1–F4. CSI 1;2R (F3 with Shift)
    /// is also a cursor-position report; the app never asks for one.
    private static let letterKeys: [Character: Key] = [
        "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end,
        "P": .function(1), "Q": .function(2), "R": .function(3), "S": .function(4),
    ]

    /// rxvt's arrows with a modifier in the final's case: Ctrl in SS3, Shift in CSI.
    private static let rxvtArrows: [Character: Key] = ["a": .up, "b": .down, "c": .right, "d": .left]

    // MARK: - SS3: ESC O x

    private static func ss3Key(_ sequence: ControlSequence) -> Key? {
        // Some older xterms put the modifier in SS3: ESC O 5 A.
        let modifiers = sequence.modifiers(at: sequence.parameters.count > 1 ? 1 : 0)
        // M: keypad Enter in application mode.
        if let key = sequence.final == "M" ? .enter : letterKeys[sequence.final] { return modified(key, modifiers) }
        if let arrow = rxvtArrows[sequence.final] { return .modified(arrow, .control) }
        // Application keypad: ESC O p..y are 0..9, and the operators.
        return keypadCharacters[sequence.final].map(Key.character)
    }

    private static let keypadCharacters: [Character: Character] = [
        "p": "0", "q": "1", "r": "2", "s": "3", "t": "4", "u": "5", "v": "6", "w": "7", "x": "8", "y": "9",
        "j": "*", "k": "+", "l": ",", "m": "-", "n": ".", "o": "/", "X": "=",
    ]

    // MARK: - CSI: ESC [ parameters final

    private static func csiKey(_ sequence: ControlSequence) -> Key? {
        guard sequence.privateMarker == nil else { return nil }
        if let key = letterKeys[sequence.final] { return modified(key, sequence.modifiers(at: 1)) }
        if let arrow = rxvtArrows[sequence.final] { return .modified(arrow, .shift) }
        switch sequence.final {
        case "Z": return .backTab
        case "~": return tildeKey(sequence, modifiers: sequence.modifiers(at: 1))
        // rxvt: ESC [ 3 ^ is Ctrl-Delete, ESC [ 3 $ Shift-Delete, ESC [ 3 @ both.
        case "^": return tildeKey(sequence, modifiers: .control)
        case "$": return tildeKey(sequence, modifiers: .shift)
        case "@": return tildeKey(sequence, modifiers: [.control, .shift])
        case "u": return codeKey(code: sequence.number(0), shifted: shiftedCode(sequence), modifiers: sequence.modifiers(at: 1))
        default: return nil
        }
    }

    /// `ESC [ n ~`: VT220 editing keys and function keys, with xterm's modifier parameter, and
    /// xterm's `modifyOtherKeys` report `ESC [ 27 ; mod ; code ~`.
    private static func tildeKey(_ sequence: ControlSequence, modifiers: KeyModifiers) -> Key? {
        guard let number = sequence.number(0) else { return nil }
        if number == 27 {
            return codeKey(code: sequence.number(2), shifted: nil, modifiers: sequence.modifiers(at: 1))
        }
        guard let key = tildeKeys[number] else { return nil }
        return modified(key, modifiers)
    }

    private static let tildeKeys: [Int: Key] = [
        1: .home, 2: .insert, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown,
        7: .home, 8: .end,  // rxvt
        11: .function(1), 12: .function(2), 13: .function(3), 14: .function(4),  // rxvt, PuTTY
        15: .function(5), 17: .function(6), 18: .function(7), 19: .function(8), 20: .function(9),
        21: .function(10), 23: .function(11), 24: .function(12), 25: .function(13), 26: .function(14),
        28: .function(15), 29: .function(16), 31: .function(17), 32: .function(18), 33: .function(19),
        34: .function(20),
    ]

    /// kitty's CSI u may carry the shifted key as the second sub-parameter of the first.
    private static func shiftedCode(_ sequence: ControlSequence) -> Int? {
        guard let first = sequence.parameters.first, first.count > 1 else { return nil }
        return first[1]
    }

    /// The key a Unicode code point stands for with modifiers, as `modifyOtherKeys` and CSI u
    /// report it: Ctrl + a letter is that control key (so CSI u Ctrl-D is Done), Alt + a
    /// character is `.alt`, Enter/Tab/Esc/Backspace keep their names.
    static func codeKey(code: Int?, shifted: Int?, modifiers: KeyModifiers) -> Key? {
        guard let code, let scalar = Unicode.Scalar(UInt32(clamping: max(0, code))) else { return nil }
        let named: Key? =
            switch code {
            case 13: .enter
            case 9: .tab
            case 27: .escape
            case 8, 127: .backspace
            default: nil
            }
        if let named {
            if named == .tab && modifiers == .shift { return .backTab }
            return modified(named, modifiers)
        }
        // Private-use code points are kitty's functional keys (keypad, media, lone modifiers).
        guard !scalar.isControlLike, !(0xE000...0xF8FF).contains(scalar.value) else { return nil }
        var character = Character(scalar)
        if modifiers.contains(.shift) {
            if let shifted, let shiftedScalar = Unicode.Scalar(UInt32(clamping: max(0, shifted))) {
                character = Character(shiftedScalar)
            } else if character.isLetter, let upper = character.uppercased().first {
                character = upper
            }
        }
        let rest = modifiers.subtracting(.shift)
        if rest.isEmpty { return .character(character) }
        if rest == .control, let control = controlKey(for: character) { return control }
        if rest == .alt { return .alt(character) }
        return .modified(.character(character), modifiers)
    }

    /// Ctrl + a letter (either case) or one of `@[\]^_`, as the C0 control it types.
    private static func controlKey(for character: Character) -> Key? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case 0x61...0x7A: return .control(character)
        case 0x41...0x5A: return .control(Character(Unicode.Scalar(ascii + 0x20)))
        case 0x5B: return .escape
        case 0x5C, 0x5D, 0x5E, 0x5F: return .control(character)
        default: return nil
        }
    }

    /// The key with its modifiers, or the plain key when there are none.
    static func modified(_ key: Key, _ modifiers: KeyModifiers) -> Key {
        modifiers.isEmpty ? key : .modified(key, modifiers)
    }
}
