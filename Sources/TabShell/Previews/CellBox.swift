import Foundation

/// A rectangle's size in terminal cells: the box a preview must fit, and the size it came out.
public struct CellBox: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var isEmpty: Bool { columns < 1 || rows < 1 }
    public var description: String { "\(columns)x\(rows)" }

    /// Whether something of `size` fits inside this box.
    public func contains(_ size: CellBox) -> Bool { size.columns <= columns && size.rows <= rows }
}
