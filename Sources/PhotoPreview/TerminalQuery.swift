/// The bytes that ask a terminal what it can draw. Write them once, before the first frame, then
/// read the answers with a short timeout (stop early when `TerminalReplies.isComplete`) and
/// parse them with `TerminalReplies.parse`.
///
/// The primary device attributes request goes last: every terminal answers it, and terminals
/// answer in order, so its reply means no other answer is still coming. A terminal that does
/// not know a request ignores it (the kitty query is an APC string, which terminals without
/// kitty graphics skip).
public enum TerminalQuery {
    /// kitty graphics: a 1×1 image query (a=q) with id 31, answered `ESC _ G i=31;OK ESC \`.
    public static let kittyGraphics = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
    /// XTVERSION: the terminal's name and version, answered `ESC P > | name(version) ESC \`.
    public static let terminalVersion = "\u{1B}[>0q"
    /// Secondary device attributes: tmux answers `ESC [ > 84 ; …` and GNU screen `ESC [ > 83 ; …`.
    public static let secondaryAttributes = "\u{1B}[>c"
    /// The size of one cell in pixels, answered `ESC [ 6 ; height ; width t`.
    public static let cellPixelSize = "\u{1B}[16t"
    /// Primary device attributes, answered `ESC [ ? class ; features c` (feature 4 = sixel).
    public static let primaryAttributes = "\u{1B}[c"

    /// All of the above, in the order to send them.
    public static var all: String {
        kittyGraphics + terminalVersion + secondaryAttributes + cellPixelSize + primaryAttributes
    }

    public static var bytes: [UInt8] { Array(all.utf8) }
}
