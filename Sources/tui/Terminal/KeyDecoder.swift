import CNcursesw
import TabShell

/// Turns what `wget_wch` returns into keys, and collects bracketed pastes and mouse reports.
///
/// Pure: it only reads curses' constants, never the terminal, so every mapping is testable.
/// Terminal.swift feeds it one `wget_wch` result at a time and acts on what comes back.
struct KeyDecoder {
    /// What one `wget_wch` result asks the terminal layer to do.
    enum Decoded: Equatable {
        case key(Key)
        /// KEY_RESIZE: curses has resized its screen; report the new size.
        case resize
        /// KEY_MOUSE: fetch the report with getmouse and pass it to `mouse(buttons:row:column:)`.
        case mouse
    }

    /// Key codes we bind with `define_key` to the bracketed-paste markers "\e[200~" and
    /// "\e[201~". Curses stores key codes as 16 bits and numbers terminfo's extended keys just
    /// above KEY_MAX, so these sit well clear of both.
    static let pasteBeginCode: Int32 = 0x7000
    static let pasteEndCode: Int32 = 0x7001
    /// A paste is capped so a runaway stream cannot eat memory; the rest is dropped.
    static let pasteByteLimit = 1 << 20

    /// The paste being collected: non-nil between the begin and end markers.
    private var paste: String?
    private var pasteBytes = 0
    private var pasteEndedWithCR = false
    /// Where button 1 last went down, so the click curses may report for the same press is
    /// not delivered twice.
    private var lastPress: (row: Int, column: Int)?

    var isCollectingPaste: Bool { paste != nil }

    // MARK: - Feeding

    /// Decodes one `wget_wch` result (`status` OK or KEY_CODE_YES; ERR yields nil). While a
    /// paste is being collected, characters go into it and nil comes back until the end marker,
    /// which yields the whole paste as one `.paste` key.
    mutating func feed(status: Int32, code: UInt32) -> Decoded? {
        if status == KEY_CODE_YES {
            switch Int32(truncatingIfNeeded: code) {
            case Self.pasteBeginCode:
                // A second begin marker inside a paste must not reset the size cap.
                if paste == nil {
                    paste = ""
                    pasteBytes = 0
                    pasteEndedWithCR = false
                }
                return nil
            case Self.pasteEndCode:
                return finishPaste().map { .key($0) }
            case KEY_RESIZE:
                return .resize
            case KEY_MOUSE:
                return .mouse
            default:
                // Keys inside a paste are pasted escape sequences curses recognised: drop them.
                return isCollectingPaste ? nil : Self.decode(status: status, code: code).map { .key($0) }
            }
        }
        guard status == OK else { return nil }
        if isCollectingPaste {
            appendToPaste(code)
            return nil
        }
        return Self.decode(status: status, code: code).map { .key($0) }
    }

    /// Ends the paste in progress (the end marker came, or never will: the terminal went
    /// silent). Returns nil when nothing was pasted.
    mutating func finishPaste() -> Key? {
        guard let text = paste else { return nil }
        paste = nil
        pasteBytes = 0
        return text.isEmpty ? nil : .paste(text)
    }

    /// Pasted text keeps its line breaks and tabs (CR and CRLF become "\n") and loses every
    /// other control character, so a paste can never smuggle escape sequences into the app.
    private mutating func appendToPaste(_ code: UInt32) {
        guard let scalar = Unicode.Scalar(code) else { return }
        let endedWithCR = pasteEndedWithCR
        pasteEndedWithCR = scalar == "\r"
        let character: Character
        switch scalar {
        case "\r": character = "\n"
        case "\n":
            if endedWithCR { return }
            character = "\n"
        case "\t": character = "\t"
        default:
            guard !scalar.properties.generalCategory.isControlLike else { return }
            character = Character(scalar)
        }
        let size = String(character).utf8.count
        guard pasteBytes + size <= Self.pasteByteLimit else {
            pasteBytes = Self.pasteByteLimit  // full: keep out everything after the cut
            return
        }
        pasteBytes += size
        paste?.append(character)
    }

    /// Turns a curses mouse report into a click or a wheel step. Button-1 press is the click;
    /// a CLICKED report at the same place right after it is the same press and is dropped.
    mutating func mouse(buttons: mmask_t, row: Int, column: Int) -> TerminalEvent? {
        let press = lastPress
        lastPress = nil
        if buttons & ts_button4_pressed() != 0 { return .scroll(up: true) }
        if buttons & ts_button5_pressed() != 0 { return .scroll(up: false) }
        if buttons & ts_button1_pressed() != 0 {
            lastPress = (row, column)
            return .click(row: row, column: column)
        }
        if buttons & ts_button1_clicked() != 0 {
            if let press, press.row == row, press.column == column { return nil }
            return .click(row: row, column: column)
        }
        return nil
    }

    // MARK: - Pure mappings

    /// The key for one `wget_wch` result, or nil for anything the app has no use for.
    static func decode(status: Int32, code: UInt32) -> Key? {
        switch status {
        case OK: character(code)
        case KEY_CODE_YES: keyCode(Int32(truncatingIfNeeded: code))
        default: nil
        }
    }

    /// A wide character read as text: control codes (nonl() keeps Enter as CR) become keys.
    private static func character(_ code: UInt32) -> Key? {
        switch code {
        case 10, 13: return .enter
        case 9: return .tab
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(96 + code))))
        default:
            guard let scalar = Unicode.Scalar(code),
                  !scalar.properties.generalCategory.isControlLike else { return nil }
            return .character(Character(scalar))
        }
    }

    /// A curses key code (terminfo already folded the many escape sequences of each key).
    private static func keyCode(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_HOME, KEY_FIND, KEY_A1: .home
        case KEY_END, KEY_SELECT, KEY_LL, KEY_C1: .end
        case KEY_PPAGE, KEY_A3: .pageUp
        case KEY_NPAGE, KEY_C3: .pageDown
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_BTAB: .backTab
        case ts_key_f(1)...ts_key_f(63): .function(Int(code - ts_key_f(0)))
        default: nil
        }
    }

    /// The character that `previous` and `next` make together, when they are one grapheme
    /// (a letter and its accent, an emoji and its modifier or joiner). Input arrives one scalar
    /// at a time; the terminal joins scalars of one burst with this.
    static func joined(_ previous: Character, _ next: Character) -> Character? {
        let text = String(previous) + String(next)
        return text.count == 1 ? text.first : nil
    }
}

private extension Unicode.GeneralCategory {
    /// Controls (C0, DEL, C1), unpaired surrogates and unassigned code points: never text.
    var isControlLike: Bool {
        switch self {
        case .control, .surrogate, .unassigned: true
        default: false
        }
    }
}
