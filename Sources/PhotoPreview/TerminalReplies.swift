/// What a terminal answered to `TerminalQuery`, parsed. Fields stay nil (or false) for requests
/// the terminal did not answer.
public struct TerminalReplies: Hashable, Sendable {
    /// Primary device attributes: the device class, then the feature numbers.
    public var primaryAttributes: [Int]?
    /// Secondary device attributes: terminal type, firmware version, ROM cartridge.
    public var secondaryAttributes: [Int]?
    /// XTVERSION's text, such as "XTerm(379)", "kitty(0.32.2)" or "tmux 3.3a".
    public var terminalVersion: String?
    /// The terminal answered the kitty graphics query with OK.
    public var kittyGraphics: Bool
    public var cellPixelSize: CellPixelSize?
    /// Bytes that were not part of any answer (keys typed while we waited), in order, for the
    /// caller to treat as input.
    public var unrelatedBytes: [UInt8]

    public init(
        primaryAttributes: [Int]? = nil, secondaryAttributes: [Int]? = nil, terminalVersion: String? = nil,
        kittyGraphics: Bool = false, cellPixelSize: CellPixelSize? = nil, unrelatedBytes: [UInt8] = []
    ) {
        self.primaryAttributes = primaryAttributes
        self.secondaryAttributes = secondaryAttributes
        self.terminalVersion = terminalVersion
        self.kittyGraphics = kittyGraphics
        self.cellPixelSize = cellPixelSize
        self.unrelatedBytes = unrelatedBytes
    }

    /// The primary attributes answer arrived: nothing else is coming (see `TerminalQuery`).
    public var isComplete: Bool { primaryAttributes != nil }

    /// Feature 4 in the primary attributes (after the device class).
    public var advertisesSixel: Bool { primaryAttributes?.dropFirst().contains(4) ?? false }

    /// The answers came from tmux or GNU screen rather than the terminal itself.
    public var fromMultiplexer: Bool {
        if let kind = secondaryAttributes?.first, kind == 84 || kind == 83 { return true }
        let version = terminalVersion?.lowercased() ?? ""
        return version.hasPrefix("tmux") || version.hasPrefix("screen")
    }

    /// XTVERSION names a terminal that shows iTerm2 inline images.
    public var supportsITerm2Images: Bool {
        let version = terminalVersion?.lowercased() ?? ""
        return version.hasPrefix("iterm2") || version.hasPrefix("wezterm")
    }
}
