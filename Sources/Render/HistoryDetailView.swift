import Foundation
import TabShell

/// One History record, pushed from the list: every field, the note in full.
struct HistoryDetailView: TabContent {
    let record: HistoryRow
    let context: RenderContext

    var heading: Heading {
        Heading(title: "\(Tab.history.title)\(context.glyphs.breadcrumb)Record #\(record.id)", context: record.kind.title)
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let glyphs = context.glyphs
        var fields = [FieldListView.Field("Kind", record.kind.title)]
        if let barcode = record.barcode {
            fields.append(.init("Barcode", context.line(barcode.value), detail: barcode.symbology.title))
        }
        fields.append(
            record.requestTitle.map { .init("Request", context.line($0), detail: record.requestID.map { "#\($0)" }) }
                ?? .init("Request", glyphs.dash, style: .dim)
        )
        fields.append(.init("Captured", Age.timestamp(record.createdAt), detail: Age.phrase(from: record.createdAt, now: context.now)))
        // The note goes last so a long one cannot push the other fields off the screen.
        if let note = record.note {
            fields.append(.init("Note", paragraphs: context.lines(note)))
        }
        // A blank row under the heading when the screen can spare it.
        let top = rect.height > fields.count + 4 ? 1 : 0
        FieldListView(fields: fields).draw(in: rect.inset(top: top, left: Table.gutterWidth), on: &canvas)
    }
}
