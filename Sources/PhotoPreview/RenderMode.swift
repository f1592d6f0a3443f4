import Domain

/// How a photo becomes terminal output: the app's `PreviewStyle` without the terminal's cell
/// size, which the previewer is handed on its own (scaled for kitty and iTerm2). Everything else
/// is mode-independent.
public enum RenderMode: Hashable, Sendable, CustomStringConvertible {
    case symbols(PreviewStyle.Symbols, PreviewStyle.Colors)
    case graphics(TerminalGraphics)

    public init(_ style: PreviewStyle) {
        switch style {
        case let .symbols(symbols, colors): self = .symbols(symbols, colors)
        case let .graphics(graphics, _): self = .graphics(graphics)
        }
    }

    /// A file-name-safe name, part of the cache key.
    public var tag: String {
        switch self {
        case .symbols(let symbols, let colors): "\(symbols.rawValue)-\(colors.rawValue)"
        case .graphics(let graphics): graphics.rawValue
        }
    }

    public var description: String { tag }
}
