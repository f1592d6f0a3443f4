import Domain
import Foundation
import TabShell
import Testing

/// docs/keys.md is generated from `KeyMap`, like the help sheet and the hint line; this test
/// fails when the table changes and the document does not. `UPDATE_DOCS=1 swift test` rewrites it.
@Suite struct KeysDocumentTests {
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/keys.md")

    static func generated() -> String {
        var out =
            "# Keys\n\nGenerated from `KeyMap` (Sources/TabShell/KeyMap.swift), the same table that draws the\nhint line and the `?` help sheet. Regenerate with `UPDATE_DOCS=1 swift test --filter KeysDocumentTests`.\n"
            + rebinding
        for context in KeyContext.allCases {
            out += "\n## \(context.title)\n\n| keys | action | does |\n| --- | --- | --- |\n"
            for binding in KeyMap.bindings(for: context) {
                let keys = binding.label(unicode: true).replacingOccurrences(of: "|", with: "\\|")
                let action = binding.isRebindable ? "`\(binding.name)`" : "`\(binding.name)` (fixed)"
                out += "| `\(keys)` | \(action) | \(binding.help) |\n"
            }
        }
        return out + SettingsDocument.section + mouseAndClipboard + terminalInput
    }

    /// config.toml's `[keys]`: what the action column means.
    static let rebinding = """

        Each binding has an action name: config.toml's `[keys]` table gives an action a list of keys
        in place of its defaults (`create = ["c"]`; `[]` unbinds it), and the hint line, this help
        and capture's list of keys then show those. Key names are written as in the keys column
        below (`Up` for `↑`, and so on; `tabshell config default` prints every action with its
        keys). An action named in several tables is one action: its keys change in all of them.
        Actions marked (fixed) cannot be rebound. docs/configuration.md says the rules.

        """

    /// The wheel, clicks and copying: `AppState.turnWheel`, the frame's hit regions, OSC 52.
    static let mouseAndClipboard = """

        ## Mouse and clipboard

        | does | where |
        | --- | --- |
        | wheel | moves what is under the pointer, a row (or a line) a step: the Inbox, History's list or a record's text, Settings, when the pointer is over the content (over the heading, the hint line or the tab bar nothing moves); over anything presented, whatever the pointer is on, that instead: help and capture's list of keys scroll, search's results, capture's kind picker and staged photos move, capture's review scrolls its fields and a batch its lines (down: older scans; a new scan brings the latest back), the photo viewer steps a photo, an alert keeps everything still |
        | click | a tab, `Close`/`Done`, a setting (steps it), an alert's button, a photo (shows it); a list row (Inbox, History, search results, capture's kinds) is highlighted by the first click and opened (or chosen) by a second |
        | `y` · `Y` | in History's list or a record: the record's code (a batch's codes one a line, a note's text) · the record as `history export --format jsonl` writes it, to the clipboard: `ESC ] 52 ; c ; <base64> ESC \\`, which the terminal reads, over SSH too; tmux takes it with `set -g set-clipboard on` (its paste buffer, and the outer terminal's clipboard); with tmux's default (`external`) tmux drops it, so when $TMUX is set and `tmux show -gv set-clipboard` is not `on` the status line adds "(tmux drops it unless set -g set-clipboard on)" and keeps it until the next key. Not wrapped in tmux's DCS passthrough, which needs `allow-passthrough on` (off by default too) and lets any program in the pane write to the outer terminal. At most 100,000 bytes of base64 (about 73 KiB of text): past it nothing is copied and the status line says "Too long to copy (N KB)." |

        """

    /// What the input decoder (Sources/TerminalInput) understands, whatever TERM says.
    static let terminalInput = """

        ## What the terminal may send

        tabshell reads every key sequence itself (curses' keypad translation is off), framed by the
        ECMA-48 grammar, so a key from a terminal other than the one TERM names is still that key,
        and a sequence it does not know is consumed whole and does nothing — never Esc + letters.

        | key | sequences understood |
        | --- | --- |
        | `↑ ↓ → ←` | `ESC [ A`..`D`, `ESC O A`..`D` (application mode) |
        | `Home` | `ESC [ H`, `ESC O H`, `ESC [ 1 ~` (VT220, Linux, screen, tmux, PuTTY), `ESC [ 7 ~` (rxvt) |
        | `End` | `ESC [ F`, `ESC O F`, `ESC [ 4 ~`, `ESC [ 8 ~` (rxvt) |
        | `Ins` `Del` `PgUp` `PgDn` | `ESC [ 2 ~`, `ESC [ 3 ~`, `ESC [ 5 ~`, `ESC [ 6 ~` |
        | `F1`–`F4` | `ESC O P`..`S`, `ESC [ 11 ~`..`14 ~` (rxvt, PuTTY), `ESC [ [ A`..`D` (Linux console) |
        | `F5`–`F12` | `ESC [ 15 ~`, `17`..`21 ~`, `23 ~`, `24 ~`; `ESC [ [ E` (Linux F5) |
        | `S-Tab` | `ESC [ Z`, `ESC Tab` (Linux console) |
        | keypad | `ESC O M` (Enter), `ESC O p`..`y` (digits) and the operators |
        | with modifiers | xterm's `ESC [ 1 ; m A` and `ESC [ n ; m ~`; rxvt's `ESC [ a`..`d`, `ESC O a`..`d`, `ESC [ n ^ $ @`. A modified key (Ctrl-↑, Shift-F5) is kept apart from the plain one and is bound to nothing |
        | other keys | xterm `modifyOtherKeys` (`ESC [ 27 ; m ; code ~`) and CSI u (`ESC [ code ; m u`, kitty's sub-parameters too) stand for the key they report: CSI u Ctrl-D is Done |
        | `Alt-x` | reported by CSI u or `modifyOtherKeys`: an Alt key, bound to nothing. `ESC x` (what most terminals send for Alt-x) is Esc and then `x`, as curses read it |
        | `Esc` | a lone ESC, after 25 ms of quiet |
        | mouse | SGR reports (`ESC [ < b ; x ; y M`, turned on at start) and X10 reports (`ESC [ M` + 3 bytes) |
        | paste | bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`), delivered whole, without control characters |

        Dropped without effect: any other CSI or SS3 sequence, focus reports, string controls (OSC, DCS,
        APC, PM, SOS) up to their terminator, and a partial sequence after 250 ms of quiet.

        """

    @Test func keysDocumentMatchesTheKeyTable() throws {
        let expected = Self.generated()
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try expected.write(to: Self.documentURL, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOf: Self.documentURL, encoding: .utf8)
        #expect(actual == expected, "docs/keys.md is out of date: run UPDATE_DOCS=1 swift test --filter KeysDocumentTests")
    }
}
