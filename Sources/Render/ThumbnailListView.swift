import Foundation
import TabShell

/// Photos as a list of thumbnails, each with its name and facts beside it and, when it cannot
/// be shown, the sentence why: capture's staged photos. The highlighted one has the pointer and
/// is kept in view.
struct ThumbnailListView {
    struct Item {
        var source: PhotoSource
        /// "1. shelf.png"
        var title: String
        /// "PNG · 64×48 · 1.2 kB"
        var facts: String
        /// Codes read from the photo ("EAN-13 4006381333931"), each on a line under the facts.
        var codes: [Span] = []
    }

    let items: [Item]
    let highlighted: Int
    let box: CellBox
    let context: RenderContext

    /// The least room beside the thumbnails for names; narrower, the caller lists text only.
    static let minimumTextWidth = 8

    /// Whether a list in `rect` has room for thumbnails and names beside them.
    static func fits(box: CellBox, in rect: Rect) -> Bool {
        rect.width - Table.gutterWidth - box.columns - 1 >= minimumTextWidth && rect.height >= box.rows
    }

    /// Draws in `rect`, whose first `Table.gutterWidth` columns are the pointer's.
    func draw(in rect: Rect, on canvas: inout Canvas) {
        guard !items.isEmpty, !rect.isEmpty else { return }
        // A blank row between photos when they all fit that way.
        let gap = items.count * box.rows + (items.count - 1) <= rect.height ? 1 : 0
        let pitch = box.rows + gap
        let window = ScrollWindow(highlighted: highlighted, total: items.count, rows: max(1, (rect.height + gap) / pitch))
        let thumbnailColumn = rect.column + Table.gutterWidth
        let text = Rect(row: rect.row, column: thumbnailColumn + box.columns + 1, width: rect.right - thumbnailColumn - box.columns - 1, height: rect.height)
        defer { window.drawMarks(in: rect, rowsPerItem: pitch, on: &canvas) }
        for (slot, index) in window.range.enumerated() {
            let top = rect.row + slot * pitch
            let rows = min(box.rows, rect.bottom - top)
            guard rows > 0 else { break }
            let item = items[index]
            let preview = PreviewView(source: item.source, box: box, context: context)
            preview?.draw(in: Rect(row: top, column: thumbnailColumn, width: box.columns, height: rows), on: &canvas)
            let selected = index == highlighted
            // A click anywhere on a photo's rows shows it full screen, as F3 does.
            for row in top..<(top + rows) {
                canvas.addHitRegion(row: row, columns: rect.column..<rect.right, action: .photoClicked(index))
            }
            if selected {
                canvas.put(context.glyphs.pointer, row: top, column: rect.column, width: Table.gutterWidth)
                canvas.anchor(.selectedRow, row: top, column: rect.column)
            }
            canvas.put(item.title, row: top, column: text.column, width: text.width, style: selected ? .selectedRow : .normal)
            var lines = [Span(item.facts, .dim)] + item.codes
            if let failure = preview?.failure {
                // The sentence says why there is no picture; with two rows it takes the facts' place.
                let sentence = Span("\(context.glyphs.error) \(failure)", .error)
                lines = rows >= 3 ? lines + [sentence] : [sentence]
            }
            for (offset, span) in lines.enumerated() where offset + 1 < rows {
                canvas.put([span], row: top + offset + 1, column: text.column, width: text.width)
            }
        }
    }
}
