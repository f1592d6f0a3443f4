import CaptureMode
import Foundation
import TabShell

/// The first step of Create from the tab bar: which kind of capture.
struct CapturePickerView {
    let capture: CaptureState
    let context: RenderContext

    func draw(in rect: Rect, on canvas: inout Canvas) {
        var area = rect
        if area.height > capture.pickerKinds.count + 1 {
            canvas.put("What do you want to capture?", row: area.row, column: area.column + Table.gutterWidth, width: area.width - Table.gutterWidth)
            area = area.inset(top: 2)
        }
        let kindWidth = capture.pickerKinds.map { TextWidth.of($0.title) }.max() ?? 0
        let table = Table(columns: [.fixed(kindWidth), .flexible()], gap: 3)
        for (index, kind) in capture.pickerKinds.enumerated() where index < area.height {
            let line = area.line(index)
            table.drawRow([Span(kind.title), Span(kind.blurb, .dim)], in: line, selected: index == capture.pickerCursor, on: &canvas)
            canvas.addHitRegion(row: line.row, columns: line.columns, action: .capture(.kindChosen(kind)))
        }
    }
}
