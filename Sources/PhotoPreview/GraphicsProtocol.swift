/// A terminal graphics protocol: the image travels as an escape sequence drawn over cells.
public enum GraphicsProtocol: String, Sendable, Hashable, Codable, CaseIterable {
    case sixel
    case kitty
    case iterm2

    /// What to write to remove every image this protocol left on screen, or nil when redrawing
    /// the cells underneath is enough (sixel and iTerm2 images are ordinary cell contents that
    /// the next write over them replaces; kitty images live on a layer of their own).
    public var clearAllSequence: String? {
        switch self {
        case .kitty: "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"
        case .sixel, .iterm2: nil
        }
    }
}
