import Foundation

/// How previews are drawn on this terminal: which characters, and whether they have colours.
/// Part of every preview request, so a change of Settings (colour, the preview setting) asks
/// for new previews instead of showing ones made for another terminal.
public struct PreviewStyle: Hashable, Sendable {
    /// The characters a photo is drawn with.
    public enum Symbols: String, Hashable, Sendable {
        /// Unicode block elements (a UTF-8 locale).
        case blocks
        /// ASCII shades (any other locale).
        case ascii
    }

    /// The colours a photo is drawn in.
    public enum Colors: String, Hashable, Sendable {
        /// The xterm 256-colour palette (indexes 16–255, which do not depend on the theme).
        case palette256
        /// No colours: the shapes carry the picture (NO_COLOR, colour off, or fewer than 256 colours).
        case monochrome
    }

    public var symbols: Symbols
    public var colors: Colors

    public init(symbols: Symbols, colors: Colors) {
        self.symbols = symbols
        self.colors = colors
    }
}
