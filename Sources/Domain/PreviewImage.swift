import Foundation

/// A photo made for the screen, `size` cells large: characters with their colours (drawn by
/// Render like any other cells), or a graphics protocol's picture (Render reserves its cells and
/// the terminal layer draws it over them). PhotoPreview makes it (libchafa) and keeps it in its
/// cache; the model holds it as it came.
public struct PreviewImage: Hashable, Sendable {
    /// One cell: a single-column character and its colours (nil: the terminal's own).
    public struct Cell: Hashable, Sendable {
        public var character: Unicode.Scalar
        public var foreground: PreviewColor?
        public var background: PreviewColor?

        public init(character: Unicode.Scalar, foreground: PreviewColor? = nil, background: PreviewColor? = nil) {
            self.character = character
            self.foreground = foreground
            self.background = background
        }
    }

    /// What the picture is made of.
    public enum Content: Hashable, Sendable {
        /// `size.rows` rows of `size.columns` cells, row by row.
        case cells([Cell])
        case graphics(PreviewGraphics)
    }

    public let size: CellSize
    public let content: Content

    /// Nil unless there is exactly one cell per position of a non-empty size.
    public init?(size: CellSize, cells: [Cell]) {
        guard !size.isEmpty, cells.count == size.columns * size.rows else { return nil }
        self.size = size
        self.content = .cells(cells)
    }

    /// A graphics protocol's picture covering `size` cells; nil for an empty size or sequence.
    public init?(size: CellSize, graphics: PreviewGraphics) {
        guard !size.isEmpty, !graphics.sequence.isEmpty else { return nil }
        self.size = size
        self.content = .graphics(graphics)
    }

    /// The cells, row by row; empty for a graphics picture.
    public var cells: [Cell] {
        if case let .cells(cells) = content { return cells }
        return []
    }

    /// The picture's escape sequence, when it is one.
    public var graphics: PreviewGraphics? {
        if case let .graphics(graphics) = content { return graphics }
        return nil
    }

    /// The cell at a position; a blank for a graphics picture (whose cells the frame leaves blank).
    public subscript(row: Int, column: Int) -> Cell {
        guard case let .cells(cells) = content else { return Cell(character: " ") }
        return cells[row * size.columns + column]
    }
}
