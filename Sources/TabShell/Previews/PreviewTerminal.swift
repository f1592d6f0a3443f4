import Domain
import Foundation

/// What this terminal can show of photos, found out by the front end at start: the locale, the
/// number of colours, a multiplexer in between, and what the terminal answered when asked about
/// graphics. Nil in `AppState` when there is no terminal (tests, commands): then no preview is
/// asked for and screens keep their text-only layout.
public struct PreviewTerminal: Equatable, Sendable {
    /// The characters photos can be drawn with: blocks in a UTF-8 locale, ASCII shades otherwise.
    public var symbols: PreviewStyle.Symbols
    /// The terminal has the 256-colour palette (curses' COLORS ≥ 256); with fewer colours
    /// previews are monochrome, since the theme's 16 colours would paint photos at random.
    public var has256Colors: Bool
    /// The graphics protocol the Automatic setting draws with; nil: symbols.
    public var graphics: TerminalGraphics?
    /// The size of a cell in the terminal's pixels, for a graphics protocol.
    public var cellPixels: CellPixels
    /// Why the automatic setting draws symbols, in a few words for Settings and `doctor`
    /// ("inside tmux", "the locale is not UTF-8"); nil when there is nothing worth saying.
    public var automaticReason: String?

    public init(
        symbols: PreviewStyle.Symbols, has256Colors: Bool, graphics: TerminalGraphics? = nil,
        cellPixels: CellPixels = .typical, automaticReason: String? = nil
    ) {
        self.symbols = symbols
        self.has256Colors = has256Colors
        self.graphics = graphics
        self.cellPixels = cellPixels
        self.automaticReason = automaticReason
    }

    /// Why Automatic draws symbols when the terminal gave no answer.
    public static let noAnswerReason = "the terminal did not answer"

    /// What a terminal can show, from what the front end reads: whether the locale is UTF-8,
    /// curses' number of colours, the environment (`TMUX`, `STY`, `NO_COLOR`), the terminal's
    /// answers to the graphics queries (nil: it did not answer in time, or was not asked) and
    /// the cell size from the tty's window size (TIOCGWINSZ's pixels over its cells), if any.
    ///
    /// Never guesses from `TERM` or `TERM_PROGRAM`: a protocol is used only when the terminal
    /// itself says it has it. Automatic prefers kitty graphics, then iTerm2 images, then sixel.
    /// Inside tmux or screen the answers are the multiplexer's own: it swallows the kitty query
    /// and names itself, so only sixel can be chosen there — when the multiplexer lists it (tmux
    /// 3.4 built with sixel draws sixel images itself); anything else is blocks.
    public static func detect(
        isUTF8: Bool, colorCount: Int, environment: [String: String], answers: TerminalAnswers? = nil,
        windowCellPixels: CellPixels? = nil
    ) -> PreviewTerminal {
        var terminal = PreviewTerminal(symbols: isUTF8 ? .blocks : .ascii, has256Colors: colorCount >= 256)
        let cellPixels = answers?.cellPixels ?? windowCellPixels
        terminal.cellPixels = cellPixels ?? .typical
        let multiplexer: String? =
            if !(environment["TMUX"] ?? "").isEmpty {
                "tmux"
            } else if !(environment["STY"] ?? "").isEmpty {
                "screen"
            } else if let answers, answers.fromMultiplexer {
                answers.multiplexerName
            } else {
                nil
            }
        let symbolsReason: String?
        if !(environment["NO_COLOR"] ?? "").isEmpty {
            symbolsReason = "NO_COLOR is set"
        } else if let answers, answers.isComplete {
            let sixel = answers.listsSixel && cellPixels != nil
            if let multiplexer {
                terminal.graphics = sixel ? .sixel : nil
                symbolsReason = "inside \(multiplexer)"
            } else if answers.kittyGraphics {
                terminal.graphics = .kitty
                symbolsReason = nil
            } else if answers.namesITerm2Images {
                terminal.graphics = .iterm2
                symbolsReason = nil
            } else if sixel {
                terminal.graphics = .sixel
                symbolsReason = nil
            } else if answers.listsSixel {
                symbolsReason = "sixel, but the terminal did not say its cell size"
            } else {
                symbolsReason = "the terminal has no graphics"
            }
        } else {
            symbolsReason = multiplexer.map { "inside \($0)" } ?? noAnswerReason
        }
        terminal.automaticReason = isUTF8 ? symbolsReason : "the locale is not UTF-8"
        return terminal
    }

    /// The style previews are drawn in under `setting`; nil when previews are off. `usesColor`
    /// is false under NO_COLOR or with colour off in Settings: then a graphics protocol gives
    /// way to monochrome symbols too (a photo in colour is what they ask not to see).
    public func style(for setting: PhotoPreviewSetting, usesColor: Bool) -> PreviewStyle? {
        switch setting {
        case .off:
            return nil
        case .automatic:
            if let graphics, usesColor { return .graphics(graphics, cell: cellPixels) }
            return symbolStyle(usesColor: usesColor)
        case .blocks:
            return symbolStyle(usesColor: usesColor)
        }
    }

    private func symbolStyle(usesColor: Bool) -> PreviewStyle {
        .symbols(symbols, usesColor && has256Colors ? .palette256 : .monochrome)
    }

    /// What Automatic draws with, in a word for the Settings row: "sixel", "kitty", "blocks".
    public func automaticMethod(usesColor: Bool) -> String {
        switch style(for: .automatic, usesColor: usesColor) {
        case let .graphics(graphics, _)?: graphics.shortTitle
        case .symbols(.ascii, _)?: "ASCII"
        case .symbols(.blocks, _)?, nil: "blocks"
        }
    }

    /// How previews are drawn, for Settings and `doctor`: "automatic (sixel)", "automatic
    /// (blocks: inside tmux), 256 colours", "blocks, monochrome", "off".
    public func describe(_ setting: PhotoPreviewSetting, usesColor: Bool) -> String {
        guard let style = style(for: setting, usesColor: usesColor) else { return "off" }
        switch style {
        case let .graphics(graphics, _):
            return "automatic (\(graphics.title))"
        case let .symbols(symbols, colors):
            let method = symbols == .blocks ? "blocks" : "ASCII shades"
            let colorText = colors == .palette256 ? "256 colours" : "monochrome"
            guard setting == .automatic else { return "\(method), \(colorText)" }
            let reason = graphics != nil && !usesColor ? "colour is off" : automaticReason
            return "automatic (\(method)\(reason.map { ": \($0)" } ?? "")), \(colorText)"
        }
    }
}
