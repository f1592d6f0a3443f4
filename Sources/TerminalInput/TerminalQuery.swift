import TabShell

/// The questions the app asks the terminal once, right after curses starts, to learn which
/// graphics protocol it can draw photos with and what colour its background is. The answers come back as `InputEvent.reply`
/// events among the keys; `TerminalAnswers.take(_:)` reads them.
///
/// Primary device attributes go last: every terminal answers them, and terminals answer in
/// order, so once that answer is in nothing else is coming. A terminal that does not know a
/// question ignores it (the kitty query is an APC string, which terminals without kitty
/// graphics — and tmux — skip).
public enum TerminalQuery {
    /// The id the kitty query carries, so its answer is known to be ours.
    public static let kittyImageID = 31
    /// kitty graphics: a 1×1 image query (a=q), answered `ESC _ G i=31;OK ESC \`.
    public static let kittyGraphics = "\u{1B}_Gi=\(kittyImageID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
    /// XTVERSION: the terminal's name and version, answered `ESC P > | name(version) ESC \`.
    public static let terminalVersion = "\u{1B}[>q"
    /// Secondary device attributes: tmux answers `ESC [ > 84 ; …`, GNU screen `ESC [ > 83 ; …`.
    public static let secondaryAttributes = "\u{1B}[>c"
    /// The size of one cell in pixels, answered `ESC [ 6 ; height ; width t` (sixel needs it).
    public static let cellPixelSize = "\u{1B}[16t"
    /// The background colour (OSC 11), answered `ESC ] 11 ; rgb:RRRR/GGGG/BBBB ESC \` (or BEL)
    /// by xterm, VTE, kitty, foot, WezTerm, iTerm2 and tmux; the auto theme reads it.
    public static let backgroundColor = "\u{1B}]11;?\u{1B}\\"
    /// Primary device attributes, answered `ESC [ ? class ; features c` (feature 4 = sixel).
    public static let primaryAttributes = "\u{1B}[c"

    /// Everything above, in the order to send it.
    public static var text: String { text(askingBackground: true) }

    /// The queries in the order to send them; the background colour only when it is asked for
    /// (the environment may already say it, or no colour is drawn). Primary device attributes
    /// always comes last: every terminal answers it, so its answer ends the wait.
    public static func text(askingBackground: Bool) -> String {
        kittyGraphics + terminalVersion + secondaryAttributes + cellPixelSize + (askingBackground ? backgroundColor : "")
            + primaryAttributes
    }
}
