import CaptureMode
import Foundation
import TabShell

/// The last step: what Done will save, and how to save or discard it.
struct CaptureReviewView {
    let capture: CaptureState
    let context: RenderContext

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let area = rect.inset(left: Table.gutterWidth)
        let instruction = capture.collectsPhotos
            ? "Press Enter or Ctrl-D to save, r to retake photos, Esc to discard."
            : "Press Enter or Ctrl-D to save, Esc to discard."
        let fieldRows = max(1, area.height - (area.height >= 4 ? 2 : 1))
        let used = FieldListView(fields: fields).draw(in: area.split(top: fieldRows).top, on: &canvas)
        let below = area.inset(top: used + (area.height - used >= 2 ? 1 : 0))
        canvas.putWrapped([instruction], in: below, style: .hint)
    }

    private var fields: [FieldListView.Field] {
        var fields: [FieldListView.Field] = []
        if let kind = capture.kind { fields.append(.init("Kind", kind.title)) }
        if capture.barcode == nil, capture.kind == .product {
            fields.append(.init("Code", "None", detail: "barcode skipped"))
        }
        if let barcode = capture.barcode {
            fields.append(.init("Code", context.line(barcode.value), detail: barcode.symbology.title))
            for field in barcode.fields {
                fields.append(.init(field.label, context.line(field.value)))
            }
        }
        fields.append(capture.request.map { .init("Request", context.line($0.title)) } ?? .init("Request", "None", style: .dim))
        if capture.collectsPhotos {
            for (index, photo) in capture.photos.enumerated() {
                fields.append(.init(index == 0 ? "Photos" : "", context.line(photo.originalName), detail: PhotoFacts.describe(photo, glyphs: context.glyphs)))
            }
        }
        // The note goes last so a long one cannot push the other fields off the screen.
        if capture.kind == .note {
            fields.append(.init("Note", paragraphs: context.lines(capture.note.text)))
        }
        return fields
    }
}
