import Domain
import Foundation
import Storage
import TabShell

/// A plain table for people: columns padded by display width (CJK and emoji count double),
/// long cells cut with an ellipsis, every cell made safe by ``Sanitizer`` (no control
/// character or escape sequence from the data ever reaches the terminal), the last column unpadded.
struct TextTable {
    struct Column {
        var title: String
        var maximumWidth: Int?
        var alignRight = false
    }

    var columns: [Column]
    var rows: [[String]] = []
    var unicode: Bool

    mutating func append(_ row: [String]) {
        rows.append(row.enumerated().map { index, cell in self.cell(cell, in: index < columns.count ? columns[index] : nil) })
    }

    /// Adds a column once the rows are in: `cells[i]` goes to row `i` (missing cells are empty).
    mutating func insertColumn(_ column: Column, at index: Int, cells: [String]) {
        let index = min(max(0, index), columns.count)
        columns.insert(column, at: index)
        for row in rows.indices {
            rows[row].insert(cell(row < cells.count ? cells[row] : "", in: column), at: min(index, rows[row].count))
        }
    }

    /// A cell made safe to print and cut to its column's width.
    private func cell(_ text: String, in column: Column?) -> String {
        let line = Sanitizer(unicode: unicode).line(text)
        guard let limit = column?.maximumWidth, TextWidth.of(line) > limit else { return line }
        let ellipsis = unicode ? "…" : "~"
        return TextWidth.prefix(line, width: limit - TextWidth.of(ellipsis)) + ellipsis
    }

    func render() -> String {
        var widths = columns.map { TextWidth.of($0.title) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TextWidth.of(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                let padding = String(repeating: " ", count: max(0, widths[index] - TextWidth.of(cell)))
                if index < columns.count, columns[index].alignRight {
                    out += padding + cell
                } else {
                    out += isLast ? cell : cell + padding
                }
                if !isLast { out += "  " }
            }
            while out.hasSuffix(" ") { out.removeLast() }
            return out + "\n"
        }
        return line(columns.map(\.title)) + rows.map(line).joined()
    }
}

/// Times in tables: UTC to the minute, e.g. `2025-06-15 15:06`.
public func tableTime(_ date: Date) -> String {
    let iso = ExportTime.string(date)  // 2025-06-15T15:06:40.000Z
    return String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ")
}
