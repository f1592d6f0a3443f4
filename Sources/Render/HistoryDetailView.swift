import CaptureMode
import Foundation
import TabShell

/// One History record, pushed from the list (or opened from search): every field, each photo's
/// facts, the note in full. Laid out in the lines `HistoryDetailLayout` counts, so the reducer
/// scrolls it exactly to its last line.
struct HistoryDetailView: TabContent {
    /// One row of the detail: a label (on a field's first row only) and the value's spans.
    struct Line: Equatable {
        var label: String
        var spans: [Span]
    }

    let detail: HistoryDetailState
    let context: RenderContext
    /// Every line, top to bottom.
    let lines: [Line]
    private let rows: Int

    init(detail: HistoryDetailState, layout: Layout, context: RenderContext) {
        self.detail = detail
        self.context = context
        let detailLayout = HistoryDetailLayout(layout: layout)
        rows = detailLayout.rows
        lines = Self.lines(of: detail, valueWidth: detailLayout.valueWidth, context: context)
    }

    /// The first line shown: the stored offset, never past the last screenful.
    private var firstLine: Int {
        min(max(0, detail.scrollOffset), max(0, lines.count - rows))
    }

    var heading: Heading {
        let record = detail.record
        let scrolls = lines.count > rows
        return Heading(
            title: "\(Tab.history.title)\(context.glyphs.breadcrumb)Record #\(record.id)",
            context: record.kind.title,
            position: scrolls ? "\(firstLine + 1)-\(min(lines.count, firstLine + rows))/\(lines.count)" : nil
        )
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        // A blank row under the heading when everything fits with it.
        let fits = lines.count + 1 <= rect.height
        let area = rect.inset(top: fits ? 1 : 0, left: HistoryDetailLayout.gutterWidth)
        let first = fits ? 0 : firstLine
        let labelWidth = HistoryDetailLayout.labelWidth
        for (offset, line) in lines[first..<min(lines.count, first + area.height)].enumerated() {
            let row = area.line(offset)
            canvas.put(line.label, row: row.row, column: row.column, width: min(labelWidth, row.width), style: .dim)
            let value = row.inset(left: labelWidth)
            if !value.isEmpty {
                canvas.put(line.spans, row: value.row, column: value.column, width: value.width)
            }
        }
    }

    // MARK: - Lines

    static func lines(of detail: HistoryDetailState, valueWidth: Int, context: RenderContext) -> [Line] {
        let record = detail.record
        let glyphs = context.glyphs
        var lines: [Line] = []

        /// A field: its paragraphs wrapped beside the label, or one line with a dim remark after
        /// the value when both fit (`HistoryDetailLayout.lineCount(of:)` counts the same lines).
        func field(_ label: String, _ paragraphs: [String], remark: String? = nil, style: CellStyle = .normal) {
            if let remark, paragraphs.count == 1,
               TextWidth.of(paragraphs[0]) + 2 + TextWidth.of(remark) <= valueWidth {
                lines.append(Line(label: label, spans: [Span(paragraphs[0], style), Span("  \(remark)", .dim)]))
                return
            }
            let wrapped = valueWidth > 0 ? TextLayout.wrap(paragraphs, width: valueWidth) : paragraphs.map { _ in "" }
            for (index, text) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
                lines.append(Line(label: index == 0 ? label : "", spans: [Span(text, style)]))
            }
        }

        field("Kind", [record.kind.title])
        if let barcode = record.barcode {
            field("Barcode", context.lines(barcode.value), remark: barcode.symbology.title)
        }
        if let title = record.requestTitle {
            field("Request", context.lines(title), remark: record.requestID.map { "#\($0)" })
        } else {
            field("Request", [glyphs.dash], style: .dim)
        }
        field(
            "Captured", [HistoryDetailLayout.timestamp(record.createdAt)],
            remark: Age.phrase(from: record.createdAt, now: context.now)
        )
        if HistoryDetailLayout.showsPhotos(detail) {
            switch detail.photos {
            case nil:
                lines.append(Line(label: "Photos", spans: [Span("Loading\(glyphs.ellipsis)", .dim)]))
            case let photos? where photos.isEmpty:
                lines.append(Line(label: "Photos", spans: [Span("None", .dim)]))
            case let photos?:
                // Two lines each, cut rather than wrapped: the name, then its facts under it, all
                // moved left as far as it takes to show the longest facts whole.
                let facts = photos.map { PhotoFacts.describe($0, context: context) }
                let numberWidth = "\(photos.count). ".count
                let indent = max(0, min(numberWidth, valueWidth - (facts.map(TextWidth.of).max() ?? 0)))
                for (index, photo) in photos.enumerated() {
                    let number = "\(index + 1). ".padding(toLength: numberWidth, withPad: " ", startingAt: 0)
                    lines.append(Line(label: index == 0 ? "Photos" : "", spans: [Span(number), Span(context.line(photo.originalName))]))
                    lines.append(Line(label: "", spans: [Span(String(repeating: " ", count: indent)), Span(facts[index], .dim)]))
                }
            }
        }
        // The note goes last so a long one cannot push the other fields off the screen.
        if let note = record.note {
            field("Note", context.lines(note))
        }
        return lines
    }
}
