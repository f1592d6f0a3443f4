import Foundation
import TabShell

/// A rectangle of cells in grid coordinates; views draw inside the one they are given.
struct Rect: Equatable, Sendable {
    var row: Int
    var column: Int
    var width: Int
    var height: Int

    init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = max(0, width)
        self.height = max(0, height)
    }

    var rows: Range<Int> { row..<(row + height) }
    var columns: Range<Int> { column..<(column + width) }
    var bottom: Int { row + height }
    var right: Int { column + width }
    var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle shrunk by the given margins (never below zero size).
    func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(row: row + top, column: column + left, width: width - left - right, height: height - top - bottom)
    }

    func inset(by margin: Int) -> Rect {
        inset(top: margin, left: margin, bottom: margin, right: margin)
    }

    /// One row of this rectangle, `offset` rows from its top.
    func line(_ offset: Int) -> Rect {
        Rect(row: row + offset, column: column, width: width, height: 1)
    }

    /// The first `count` rows, and what is left below them.
    func split(top count: Int) -> (top: Rect, rest: Rect) {
        let count = min(max(0, count), height)
        return (
            Rect(row: row, column: column, width: width, height: count),
            Rect(row: row + count, column: column, width: width, height: height - count)
        )
    }

    /// A rectangle of the given size centred in this one (clamped to fit).
    func centered(width: Int, height: Int) -> Rect {
        let width = min(width, self.width), height = min(height, self.height)
        return Rect(row: row + (self.height - height) / 2, column: column + (self.width - width) / 2, width: width, height: height)
    }
}
