/// How many colours a symbol rendering may use.
public enum ColorDepth: String, Sendable, Hashable, Codable, CaseIterable {
    /// 24-bit colour (`COLORTERM=truecolor`).
    case truecolor
    /// The xterm 256-colour palette; cells use indexes 16–255, whose colours do not depend on the theme.
    case palette256
    /// The 16 system colours (their shades depend on the terminal's theme).
    case palette16
    /// No colours at all: the terminal's own foreground and background (`NO_COLOR`).
    case monochrome

    /// The depth for a terminal, from what the caller read from the environment and curses:
    /// `noColor` is `NO_COLOR` being set and non-empty, `colorCount` is curses' COLORS,
    /// `colorTerm` is `COLORTERM`.
    public static func detect(noColor: Bool, colorCount: Int, colorTerm: String?) -> ColorDepth {
        if noColor || colorCount < 8 { return .monochrome }
        let declared = colorTerm?.lowercased() ?? ""
        if declared == "truecolor" || declared == "24bit" { return .truecolor }
        if colorCount >= 256 { return .palette256 }
        return .palette16
    }
}
