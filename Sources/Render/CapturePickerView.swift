import CaptureMode
import Domain
import Foundation
import TabShell

/// The first step of Create from the tab bar: which kind of capture. On a short screen the
/// kinds scroll with the highlight, marked where more lie above or below.
struct CapturePickerView {
    let capture: CaptureState
    /// The key that chooses each kind, from the key table in force (a row without one shows none).
    let kindKeys: [CaptureKind: String]
    let context: RenderContext

    func draw(in rect: Rect, on canvas: inout Canvas) {
        var area = rect
        let kinds = capture.pickerKinds
        if area.height > kinds.count + 1 {
            canvas.put("What do you want to capture?", row: area.row, column: area.column + Table.gutterWidth, width: area.width - Table.gutterWidth)
            area = area.inset(top: 2)
        }
        let window = ScrollWindow(highlighted: capture.pickerCursor, total: kinds.count, rows: area.height)
        let kindWidth = kinds.map { TextWidth.of($0.title) }.max() ?? 0
        let keyWidth = kinds.compactMap { kindKeys[$0].map(TextWidth.of) }.max() ?? 0
        // Each row leads with the key that chooses it; with no key bound at all, no key column.
        let table = Table(columns: (keyWidth > 0 ? [.fixed(keyWidth)] : []) + [.fixed(kindWidth), .flexible()], gap: keyWidth > 0 ? 2 : 3)
        let rows = window.rowsRect(in: area, glyphs: context.glyphs)
        for (offset, index) in window.range.enumerated() {
            let kind = kinds[index]
            let line = rows.line(offset)
            let key = keyWidth > 0 ? [Span(kindKeys[kind] ?? "", .heading)] : []
            table.drawRow(
                key + [Span(kind.title), Span(kind.blurb, .dim)], in: line, selected: index == capture.pickerCursor, clicks: .capture(.pickerRowClicked(index)),
                on: &canvas)
        }
        window.drawMarks(in: area, on: &canvas)
    }
}
