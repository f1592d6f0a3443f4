/// One cell of a symbol rendering: a single-column character and its colours. A nil colour
/// means the terminal's default (always so in monochrome; a transparent part of a photo).
public struct PreviewCell: Hashable, Sendable {
    public var character: Unicode.Scalar
    public var foreground: CellColor?
    public var background: CellColor?

    public init(character: Unicode.Scalar, foreground: CellColor? = nil, background: CellColor? = nil) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }

    public var text: String { String(Character(character)) }
}
