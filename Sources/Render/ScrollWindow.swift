import Foundation
import TabShell

/// The rows of a list that fit on screen: always with the highlighted row among them, and with
/// a mark at the right end of the first row (▲) or the last (▼) when more lie above or below
/// ("more above", "more below" in screen-reader mode).
/// One rule for every list whose view decides its own scrolling (the capture picker, staged
/// photos, a batch's lines, search results); the tabs' lists scroll in the model
/// (`ListPosition`) and say where they are on the heading's rule.
struct ScrollWindow: Equatable {
    /// The indices of the rows shown, in order.
    let range: Range<Int>
    let total: Int

    /// Rows from `offset` (a model's scroll position, or 0), moved the least that shows
    /// `highlighted`, never past the list's end.
    init(highlighted: Int?, total: Int, rows: Int, from offset: Int = 0) {
        let rows = max(0, rows)
        let total = max(0, total)
        var first = min(max(0, offset), max(0, total - rows))
        if let highlighted, total > 0, rows > 0 {
            let highlighted = min(max(0, highlighted), total - 1)
            if highlighted < first { first = highlighted }
            if highlighted >= first + rows { first = highlighted - rows + 1 }
        }
        self.range = first..<min(total, first + rows)
        self.total = total
    }

    /// Rows hidden beyond the list held (a watcher holds only the rows the presenter shows).
    var hiddenAbove = 0
    var hiddenBelow = 0

    var hidesAbove: Bool { range.lowerBound > 0 || hiddenAbove > 0 }
    var hidesBelow: Bool { range.upperBound < total || hiddenBelow > 0 }

    /// Where the rows go in `rect`: narrower by the marks' column and a space before it when
    /// rows are hidden, so a mark never stands in for a row's last character.
    func rowsRect(in rect: Rect, glyphs: Glyphs) -> Rect {
        hidesAbove || hidesBelow ? rect.inset(right: min(Self.markWidth(glyphs) + 1, max(0, rect.width - 1))) : rect
    }

    /// Cells the widest mark takes: one, or a few words in screen-reader mode.
    static func markWidth(_ glyphs: Glyphs) -> Int {
        max(TextWidth.of(glyphs.moreAbove), TextWidth.of(glyphs.moreBelow))
    }

    /// Marks `rect`, the list's rows as drawn (one row per item from its top), where rows are hidden.
    func drawMarks(in rect: Rect, rowsPerItem: Int = 1, on canvas: inout Canvas) {
        guard !rect.isEmpty else { return }
        let lastRow = rect.row + min(rect.height, max(1, range.count * max(1, rowsPerItem))) - 1
        let width = min(Self.markWidth(canvas.glyphs), rect.width)
        let column = rect.right - width
        if hidesBelow {
            canvas.put([Span(canvas.glyphs.moreBelow, .dim)], row: lastRow, column: column, width: width, overflow: .clip)
        }
        if hidesAbove {
            // On a one-row list both marks share the row: ▲ goes left of ▼.
            let aboveColumn = hidesBelow && lastRow == rect.row ? column - width - (width > 1 ? 1 : 0) : column
            canvas.put([Span(canvas.glyphs.moreAbove, .dim)], row: rect.row, column: aboveColumn, width: width, overflow: .clip)
        }
    }
}
