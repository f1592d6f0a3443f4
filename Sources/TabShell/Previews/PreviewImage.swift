import Foundation

/// A photo drawn with characters: `size.rows` rows of `size.columns` one-column cells, each a
/// character with its colours. Made by the effect runner (PhotoPreview, libchafa) and drawn by
/// Render like any other cells.
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

    public let size: CellBox
    public let cells: [Cell]

    /// Nil unless there is exactly one cell per position of a non-empty size.
    public init?(size: CellBox, cells: [Cell]) {
        guard !size.isEmpty, cells.count == size.columns * size.rows else { return nil }
        self.size = size
        self.cells = cells
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * size.columns + column]
    }

    /// The characters of one row, without colours (for tests and logs).
    public func text(ofRow row: Int) -> String {
        var line = String.UnicodeScalarView()
        for column in 0..<size.columns { line.append(self[row, column].character) }
        return String(line)
    }
}
