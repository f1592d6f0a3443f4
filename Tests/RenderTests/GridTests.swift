import TabShell
import Testing

@testable import Render

/// The row comparison the terminal uses to skip unchanged rows: a row is equal only when every
/// cell's text and style are.
@Suite struct GridTests {
    static func grid(_ rows: [String], style: CellStyle = .normal) -> Grid {
        var grid = Grid(width: rows.map(\.count).max() ?? 0, height: rows.count)
        for (row, text) in rows.enumerated() {
            for (column, character) in text.enumerated() { grid[row, column] = Cell(String(character), style: style) }
        }
        return grid
    }

    @Test func rowsCompareCellByCell() {
        let old = Self.grid(["abc", "def", "ghi"])
        var new = old
        new[1, 2] = Cell("x")
        #expect(new.row(0, equals: old))
        #expect(!new.row(1, equals: old))
        #expect(new.row(2, equals: old))
    }

    @Test func aStyleChangeAloneMakesTheRowDifferent() {
        let old = Self.grid(["abc"])
        var new = old
        new[0, 0] = Cell("a", style: .selectedRow)
        #expect(!new.row(0, equals: old))
    }

    @Test func aWideCharacterBecomingTwoNarrowOnesIsAChange() {
        var old = Grid(width: 2, height: 1)
        old[0, 0] = Cell("日")
        old[0, 1] = Cell("")
        var new = old
        new[0, 1] = Cell(" ")
        #expect(!new.row(0, equals: old))
    }

    @Test func gridsOfOtherSizesOrRowsOutsideAreNeverEqual() {
        let old = Self.grid(["abc"])
        #expect(!Self.grid(["abcd"]).row(0, equals: old))
        #expect(!old.row(1, equals: old))
        #expect(!old.row(-1, equals: old))
    }
}
