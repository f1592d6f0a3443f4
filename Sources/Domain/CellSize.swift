/// A size in terminal cells: the box a preview must fit, and the size it came out. One type for
/// the app's model (TabShell calls it `CellBox`) and the photo previewer, which share nothing else.
public struct CellSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var isEmpty: Bool { columns < 1 || rows < 1 }
    public var cellCount: Int { max(0, columns) * max(0, rows) }
    public var description: String { "\(columns)x\(rows)" }

    /// Whether something of `size` fits inside this box.
    public func contains(_ size: CellSize) -> Bool { size.columns <= columns && size.rows <= rows }
}
