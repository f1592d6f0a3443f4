import Domain
import Foundation
import TabShell

/// The column layout of a list: a gutter for the selection pointer, then columns of fixed or
/// flexible width. Lists (Inbox, History, Settings, the kind picker) draw their rows through it,
/// so headers line up with rows and selection looks the same everywhere.
struct Table {
    enum Width: Equatable {
        case fixed(Int)
        /// Shares what the fixed columns leave, in proportion to the weight.
        case flexible(weight: Int)
    }

    enum Alignment { case leading, trailing }

    struct Column {
        var width: Width
        var alignment: Alignment = .leading

        static func fixed(_ width: Int, _ alignment: Alignment = .leading) -> Column {
            Column(width: .fixed(width), alignment: alignment)
        }

        static func flexible(_ weight: Int = 1) -> Column { Column(width: .flexible(weight: weight)) }
    }

    static let gutterWidth = 2
    /// The widest kind's title: a list's Kind column (Inbox, History, search results).
    static let kindWidth = CaptureKind.allCases.map { TextWidth.of($0.title) }.max() ?? 0

    var columns: [Column]
    var gap = 1

    /// The columns' cell ranges in a row of `rect`.
    func ranges(in rect: Rect) -> [Range<Int>] {
        let fixed = columns.reduce(0) { sum, column in if case let .fixed(width) = column.width { sum + width } else { sum } }
        let weights = columns.reduce(0) { sum, column in if case let .flexible(weight) = column.width { sum + weight } else { sum } }
        let spare = max(0, rect.width - Self.gutterWidth - fixed - gap * max(0, columns.count - 1))
        var flexibleLeft = spare
        var x = rect.column + Self.gutterWidth
        var ranges: [Range<Int>] = []
        var weightLeft = weights
        for column in columns {
            let width: Int
            switch column.width {
            case let .fixed(fixedWidth):
                width = fixedWidth
            case let .flexible(weight):
                width = weightLeft == weight ? flexibleLeft : spare * weight / max(1, weights)
                flexibleLeft -= width
                weightLeft -= weight
            }
            // A column that starts past the right edge (a row narrower than the gutter) is empty.
            let start = min(x, rect.right)
            ranges.append(start..<max(start, min(rect.right, x + width)))
            x += width + gap
        }
        return ranges
    }

    /// Draws one row of `cells` (one per column) in `rect`'s first row. A selected row gets the
    /// pointer in the gutter and the `.selectedRow` style across its whole width; a click on the
    /// row sends `clicks`, if given.
    func drawRow(_ cells: [Span], in rect: Rect, selected: Bool = false, clicks: AppAction? = nil, on canvas: inout Canvas) {
        let line = rect.line(0)
        canvas.fill(line)
        if selected {
            canvas.put(canvas.glyphs.pointer, row: line.row, column: line.column, width: Self.gutterWidth)
            canvas.anchor(.selectedRow, row: line.row, column: line.column)
        }
        for (cell, (column, range)) in zip(cells, zip(columns, ranges(in: line))) where !range.isEmpty {
            let cellRect = Rect(row: line.row, column: range.lowerBound, width: range.count, height: 1)
            switch column.alignment {
            case .leading: canvas.put([cell], row: line.row, column: range.lowerBound, width: range.count)
            case .trailing: canvas.putRightAligned([cell], in: cellRect)
            }
        }
        if selected { canvas.restyle(line, style: .selectedRow) }
        if let clicks { canvas.addHitRegion(row: line.row, columns: line.columns, action: clicks) }
    }
}
