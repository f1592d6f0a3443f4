/// How a photo becomes terminal output: characters with colours in cells, or an image through a
/// graphics protocol. Chosen once per terminal (the app's `PreviewTerminal`); everything else is
/// mode-independent.
public enum RenderMode: Hashable, Sendable, Codable, CustomStringConvertible {
    case symbols(SymbolSet, ColorDepth)
    case graphics(GraphicsProtocol)

    /// A file-name-safe name, part of the cache key.
    public var tag: String {
        switch self {
        case .symbols(let symbols, let colors): "\(symbols.rawValue)-\(colors.rawValue)"
        case .graphics(let graphics): graphics.rawValue
        }
    }

    public var description: String { tag }
}
