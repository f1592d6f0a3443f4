import Foundation

/// What this terminal can show of photos, found out by the front end at start (the locale, the
/// number of colours, a multiplexer in between). Nil in `AppState` when there is no terminal
/// (tests, commands): then no preview is asked for and screens keep their text-only layout.
public struct PreviewTerminal: Equatable, Sendable {
    /// The characters photos can be drawn with: blocks in a UTF-8 locale, ASCII shades otherwise.
    public var symbols: PreviewStyle.Symbols
    /// The terminal has the 256-colour palette (curses' COLORS ≥ 256); with fewer colours
    /// previews are monochrome, since the theme's 16 colours would paint photos at random.
    public var has256Colors: Bool
    /// Why the automatic setting draws as it does, in a few words for Settings and `doctor`
    /// ("inside tmux", "the locale is not UTF-8"); nil when there is nothing worth saying.
    public var automaticReason: String?

    public init(symbols: PreviewStyle.Symbols, has256Colors: Bool, automaticReason: String? = nil) {
        self.symbols = symbols
        self.has256Colors = has256Colors
        self.automaticReason = automaticReason
    }

    /// What a terminal can show, from what the front end reads: whether the locale is UTF-8,
    /// curses' number of colours, and the environment (`TMUX`, `STY`, `NO_COLOR`).
    public static func detect(isUTF8: Bool, colorCount: Int, environment: [String: String]) -> PreviewTerminal {
        let reason: String?
        if !isUTF8 {
            reason = "the locale is not UTF-8"
        } else if !(environment["TMUX"] ?? "").isEmpty {
            reason = "inside tmux"
        } else if !(environment["STY"] ?? "").isEmpty {
            reason = "inside screen"
        } else {
            reason = nil
        }
        return PreviewTerminal(symbols: isUTF8 ? .blocks : .ascii, has256Colors: colorCount >= 256, automaticReason: reason)
    }

    /// The style previews are drawn in under `setting`; nil when previews are off. `usesColor`
    /// is false under NO_COLOR or with colour off in Settings.
    public func style(for setting: PhotoPreviewSetting, usesColor: Bool) -> PreviewStyle? {
        switch setting {
        case .off:
            return nil
        case .automatic, .blocks:
            // Blocks with colour are what both draw until a graphics protocol is implemented.
            return PreviewStyle(symbols: symbols, colors: usesColor && has256Colors ? .palette256 : .monochrome)
        }
    }

    /// How previews are drawn, for Settings and `doctor`: "automatic (blocks: inside tmux),
    /// 256 colours", "blocks, monochrome", "off".
    public func describe(_ setting: PhotoPreviewSetting, usesColor: Bool) -> String {
        guard let style = style(for: setting, usesColor: usesColor) else { return "off" }
        let method = style.symbols == .blocks ? "blocks" : "ASCII shades"
        let colors = style.colors == .palette256 ? "256 colours" : "monochrome"
        switch setting {
        case .automatic:
            return "automatic (\(method)\(automaticReason.map { ": \($0)" } ?? "")), \(colors)"
        case .blocks, .off:
            return "\(method), \(colors)"
        }
    }
}
