import Foundation
import TabShell

/// Labelled fields one under another ("Kind  Barcode"), values wrapped beside their labels:
/// a record's details, or what a capture will save.
struct FieldListView {
    struct Field {
        var label: String
        /// Safe text, one paragraph per line of the value.
        var paragraphs: [String]
        /// A dim remark after a one-line value ("EAN-13", "5m ago").
        var detail: String?
        var style: CellStyle = .normal

        init(_ label: String, _ value: String, detail: String? = nil, style: CellStyle = .normal) {
            self.init(label, paragraphs: [value], detail: detail, style: style)
        }

        init(_ label: String, paragraphs: [String], detail: String? = nil, style: CellStyle = .normal) {
            self.label = label
            self.paragraphs = paragraphs
            self.detail = detail
            self.style = style
        }
    }

    let fields: [Field]

    /// Draws from the top of `rect`; returns the rows used. Labels take a column as wide as the
    /// longest; when values would be narrower than `HistoryDetailLayout.minimumValueWidth`
    /// beside it, each label has a line of its own (wrapped if it must) and its value goes
    /// under it, indented: a label is never cut, as in a record's detail.
    @discardableResult
    func draw(in rect: Rect, on canvas: inout Canvas) -> Int {
        let columns = HistoryDetailLayout.columns(forLabels: fields.map(\.label), width: rect.width)
        let (stacked, labelWidth) = (columns.stacked, columns.label)
        var area = rect
        for field in fields where area.height > 0 {
            if stacked {
                if !field.label.isEmpty {
                    area = area.inset(top: canvas.putWrapped([field.label], in: area, style: .dim))
                }
                guard area.height > 0 else { break }
            } else {
                canvas.put(field.label, row: area.row, column: area.column, width: min(labelWidth, area.width), style: .dim)
            }
            let valueArea = area.inset(left: labelWidth)
            let used: Int
            if let detail = field.detail, field.paragraphs.count == 1,
                TextWidth.of(field.paragraphs[0]) + 2 + TextWidth.of(detail) <= valueArea.width
            {
                canvas.put(
                    [Span(field.paragraphs[0], field.style), Span("  \(detail)", .dim)],
                    row: valueArea.row, column: valueArea.column, width: valueArea.width
                )
                used = 1
            } else {
                used = canvas.putWrapped(field.paragraphs, in: valueArea, style: field.style)
            }
            area = area.inset(top: max(1, used))
        }
        return rect.height - area.height
    }
}
