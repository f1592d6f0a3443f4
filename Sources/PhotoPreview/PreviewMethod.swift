/// How photos are shown in this terminal: what Settings and `doctor` name, chosen by
/// `PreviewMethodChooser` from the terminal's answers, the locale and the user's setting.
public enum PreviewMethod: String, Sendable, Hashable, Codable, CaseIterable {
    case kitty
    case sixel
    case iterm2
    case blocks
    case ascii
    case off

    /// The render mode for this method at a colour depth; nil for `.off`. Under monochrome the
    /// graphics protocols give way to blocks: a photo in colour is what `NO_COLOR` asks not to see.
    public func renderMode(colors: ColorDepth) -> RenderMode? {
        if let graphics = graphicsProtocol {
            return colors == .monochrome ? .symbols(.blocks, .monochrome) : .graphics(graphics)
        }
        switch self {
        case .ascii: return .symbols(.ascii, colors)
        case .off: return nil
        case .blocks, .kitty, .sixel, .iterm2: return .symbols(.blocks, colors)
        }
    }

    public var graphicsProtocol: GraphicsProtocol? {
        switch self {
        case .kitty: .kitty
        case .sixel: .sixel
        case .iterm2: .iterm2
        case .blocks, .ascii, .off: nil
        }
    }

    /// For Settings and `doctor`.
    public var title: String {
        switch self {
        case .kitty: "kitty graphics"
        case .sixel: "sixel graphics"
        case .iterm2: "iTerm2 inline images"
        case .blocks: "Unicode blocks"
        case .ascii: "ASCII shades"
        case .off: "off"
        }
    }
}
