/// Which characters a symbol rendering may draw with. Every one is a single-column character.
public enum SymbolSet: String, Sendable, Hashable, Codable, CaseIterable {
    /// Block elements (U+2580–U+259F: halves, quadrants, eighths) and space: in every UTF-8
    /// terminal font.
    case blocks
    /// Blocks plus the sextants of Symbols for Legacy Computing (U+1FB00–U+1FB3B): twice the
    /// vertical detail, but some fonts lack them.
    case sextants
    /// Printable ASCII only, for a terminal whose locale is not UTF-8.
    case ascii
}
