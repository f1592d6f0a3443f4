import TabShell

@testable import Render

extension Frame {
    /// Where `needle` (compared cell by cell) first appears on screen, in grid coordinates.
    func find(_ needle: String, inRow onlyRow: Int? = nil) -> (row: Int, column: Int)? {
        let wanted = needle.map(String.init)
        for row in onlyRow.map({ [$0] }) ?? Array(0..<grid.height) {
            let cells = (0..<grid.width).map { grid[row, $0].text }
            guard cells.count >= wanted.count else { continue }
            for column in 0...(cells.count - wanted.count) where Array(cells[column..<(column + wanted.count)]) == wanted {
                return (row, column)
            }
        }
        return nil
    }

    /// The action a click on the middle of `needle` sends.
    func click(on needle: String, inRow row: Int? = nil) -> AppAction? {
        guard let position = find(needle, inRow: row) else { return nil }
        return action(atRow: position.row, column: position.column + needle.count / 2)
    }

    /// Every problem with the grid's cell structure: a row whose display widths do not add up
    /// to the width, or a continuation cell that does not follow a wide character.
    var structuralProblems: [String] {
        var problems: [String] = []
        for row in 0..<grid.height {
            var sum = 0
            for column in 0..<grid.width {
                let cell = grid[row, column]
                let width = TextWidth.of(cell.text)
                sum += width
                if cell.isContinuation {
                    if column == 0 || TextWidth.of(grid[row, column - 1].text) != 2 {
                        problems.append("row \(row) column \(column): continuation without a wide character")
                    }
                } else if width == 2, column + 1 >= grid.width || !grid[row, column + 1].isContinuation {
                    problems.append("row \(row) column \(column): wide character without its continuation")
                } else if width == 0 {
                    problems.append("row \(row) column \(column): zero-width cell \(cell.text.unicodeScalars.map { String($0.value, radix: 16) })")
                }
            }
            if sum != grid.width { problems.append("row \(row): widths add up to \(sum), not \(grid.width)") }
        }
        return problems
    }
}
