/// A terminal graphics protocol: the image travels as an escape sequence drawn over cells.
public enum GraphicsProtocol: String, Sendable, Hashable, Codable, CaseIterable {
    case sixel
    case kitty
    case iterm2
}
