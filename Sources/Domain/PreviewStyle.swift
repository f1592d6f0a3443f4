import Foundation

/// How previews are drawn on this terminal: characters with colours in cells, or pictures
/// through a graphics protocol. Part of every preview request, so a change of Settings
/// (colour, the preview setting) asks for new previews instead of showing ones made for
/// another terminal.
public enum PreviewStyle: Hashable, Sendable {
    /// Characters in cells, drawn with the frame like any other text.
    case symbols(Symbols, Colors)
    /// A picture in the terminal's own pixels (`cell` is the size of one cell in them), drawn
    /// over cells the frame leaves blank.
    case graphics(TerminalGraphics, cell: CellPixels)

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

    public init(symbols: Symbols, colors: Colors) {
        self = .symbols(symbols, colors)
    }

    /// The protocol, when pictures are drawn through one.
    public var graphics: TerminalGraphics? {
        if case let .graphics(graphics, _) = self { return graphics }
        return nil
    }
}
