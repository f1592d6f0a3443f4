import Domain

/// A photo for a graphics protocol: an escape sequence that draws it over `size` cells, with
/// its top-left corner at the cursor.
public struct GraphicsImage: Hashable, Sendable {
    public let graphicsProtocol: GraphicsProtocol
    public let size: CellSize
    public let sequence: String

    public init(graphicsProtocol: GraphicsProtocol, size: CellSize, sequence: String) {
        self.graphicsProtocol = graphicsProtocol
        self.size = size
        self.sequence = sequence
    }

    /// What to write to the terminal, after curses has drawn and flushed the frame, to show the
    /// image with its top-left corner at a 0-based cell position: save the cursor, move, draw,
    /// restore the cursor (so curses' idea of where the cursor is stays true).
    public func placement(row: Int, column: Int) -> String {
        "\u{1B}7\u{1B}[\(row + 1);\(column + 1)H" + sequence + "\u{1B}8"
    }
}
