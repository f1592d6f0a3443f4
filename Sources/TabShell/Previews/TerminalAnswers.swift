import Domain
import Foundation

/// What the terminal answered to the graphics queries the front end sends once at start
/// (TerminalInput's `TerminalQuery`): which protocols it draws, its name and its cell size.
/// Fields stay nil (or false) for questions it did not answer.
public struct TerminalAnswers: Hashable, Sendable {
    /// Primary device attributes: the device class, then the feature numbers (4 = sixel).
    public var primaryAttributes: [Int]?
    /// Secondary device attributes: tmux answers 84, GNU screen 83 as the terminal type.
    public var secondaryAttributes: [Int]?
    /// XTVERSION's text, such as "XTerm(379)", "kitty(0.32.2)" or "tmux 3.3a".
    public var terminalVersion: String?
    /// The terminal answered the kitty graphics query with OK.
    public var kittyGraphics: Bool
    /// `CSI 16 t`'s answer.
    public var cellPixels: CellPixels?
    /// OSC 11's answer: the terminal's background colour (for the auto theme).
    public var background: BackgroundColor?

    public init(
        primaryAttributes: [Int]? = nil, secondaryAttributes: [Int]? = nil, terminalVersion: String? = nil,
        kittyGraphics: Bool = false, cellPixels: CellPixels? = nil, background: BackgroundColor? = nil
    ) {
        self.background = background
        self.primaryAttributes = primaryAttributes
        self.secondaryAttributes = secondaryAttributes
        self.terminalVersion = terminalVersion
        self.kittyGraphics = kittyGraphics
        self.cellPixels = cellPixels
    }

    /// The primary attributes arrived. The query asks for them last and every terminal answers
    /// them, in order, so nothing else is coming.
    public var isComplete: Bool { primaryAttributes != nil }

    /// Feature 4 after the device class in the primary attributes.
    public var listsSixel: Bool { primaryAttributes?.dropFirst().contains(4) ?? false }

    /// The answers came from tmux or GNU screen rather than the terminal behind it.
    public var fromMultiplexer: Bool {
        if let kind = secondaryAttributes?.first, kind == 84 || kind == 83 { return true }
        let version = terminalVersion?.lowercased() ?? ""
        return version.hasPrefix("tmux") || version.hasPrefix("screen")
    }

    /// XTVERSION names a terminal that shows iTerm2 inline images (iTerm2, WezTerm).
    public var namesITerm2Images: Bool {
        let version = terminalVersion?.lowercased() ?? ""
        return version.hasPrefix("iterm2") || version.hasPrefix("wezterm")
    }

    /// The multiplexer's name for sentences: "tmux 3.3a", else "tmux or screen".
    var multiplexerName: String {
        if let version = terminalVersion, fromMultiplexer { return version }
        if secondaryAttributes?.first == 83 { return "screen" }
        return "tmux"
    }
}
