import Domain

/// A photo drawn with characters: `size.rows` rows of `size.columns` cells, row by row.
public struct CellGrid: Hashable, Sendable {
    public let size: CellSize
    public let cells: [PreviewCell]

    /// Nil unless there is exactly one cell per position.
    public init?(size: CellSize, cells: [PreviewCell]) {
        guard !size.isEmpty, cells.count == size.cellCount else { return nil }
        self.size = size
        self.cells = cells
    }

    public subscript(row: Int, column: Int) -> PreviewCell {
        cells[row * size.columns + column]
    }

    /// The characters of one row, without colours (for tests and logs).
    public func text(ofRow row: Int) -> String {
        var line = String.UnicodeScalarView()
        for column in 0..<size.columns { line.append(self[row, column].character) }
        return String(line)
    }
}
