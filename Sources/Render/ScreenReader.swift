import Foundation
import TabShell

/// Screen-reader mode (`tabshell --screen-reader`, `screen_reader = true` in the config file,
/// or `TABSHELL_SCREEN_READER=1`, which `tabshell serve` accepts from an SSH client): the
/// terminal cursor always sits on what has focus, the last row announces what changed, and the
/// chrome is drawn in words and spaces. docs/accessibility.md says what it does and why.
public enum ScreenReader {
    /// The environment variable that turns the mode on (`1`, `true`, `yes`, `on`) or off (`0`,
    /// `false`, `no`, `off`); anything else leaves the other sources to decide.
    public static let environmentVariable = "TABSHELL_SCREEN_READER"

    /// Whether the mode is on: the command-line flag wins, then the environment variable, then
    /// the config file's `screen_reader`.
    public static func isOn(flag: Bool, environment: [String: String], configured: Bool = false) -> Bool {
        if flag { return true }
        switch environment[environmentVariable]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: return configured
        }
    }

    /// The size the app's screens get in a terminal of `terminal` cells: one row less in
    /// screen-reader mode, whose last row is the announcement line.
    public static func appSize(terminal: ScreenSize, options: RenderOptions) -> ScreenSize {
        ScreenSize(rows: max(0, terminal.rows - options.announcementRows), columns: terminal.columns)
    }
}

/// A place on a frame that can have focus, noted as views draw: in screen-reader mode the
/// screen puts the cursor on the one `AppState.focus` names (`Screen.focusCursor`).
enum FocusAnchor: Hashable {
    /// The pointer of a list's selected row (the last list drawn).
    case selectedRow
    /// The button Enter presses in an alert.
    case defaultButton
    /// Capture's Done, which Enter presses at review.
    case doneButton
    /// The first line of a sheet's or an overlay's text (help, capture's keys).
    case overlayText
    /// The first row of a screen's content when it has no list row to select (an empty list,
    /// a record's detail, the photo viewer's facts).
    case content
}
