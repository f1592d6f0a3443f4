import CaptureMode
import Domain
import Foundation
import TabShell

/// The last step: what Done will save, and how to save or discard it.
struct CaptureReviewView {
    let capture: CaptureState
    let context: RenderContext

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let area = rect.inset(left: Table.gutterWidth)
        let instruction =
            capture.collectsPhotos
            ? "Press Enter or Ctrl-D to save, r to retake photos, Esc offers to discard."
            : "Press Enter or Ctrl-D to save, Esc offers to discard."
        let fieldRows = max(1, area.height - (area.height >= 4 ? 2 : 1))
        let fieldArea = area.split(top: fieldRows).top
        let used: Int
        if capture.reviewScrollOffset > 0 {
            used = drawScrolledFields(in: fieldArea, on: &canvas)
        } else {
            used = FieldListView(fields: fields).draw(in: fieldArea, on: &canvas)
            // Fields cut by a short screen: marked, as a list's hidden rows are.
            if used >= fieldArea.height, neededFieldRows(width: fieldArea.width) > fieldArea.height {
                let lastRow = Rect(row: fieldArea.row + used - 1, column: fieldArea.column, width: fieldArea.width, height: 1)
                ScrollWindow(highlighted: nil, total: 2, rows: 1).drawMarks(in: lastRow, on: &canvas)
            }
        }
        var below = area.inset(top: used + (area.height - used >= 2 ? 1 : 0))
        below = drawThumbnails(in: below, instruction: instruction, on: &canvas)
        canvas.putWrapped([instruction], in: below, style: .hint)
    }

    /// The staged photos' thumbnails side by side, in order, when there is room for them above
    /// the instruction; returns what is left below them.
    private func drawThumbnails(in rect: Rect, instruction: String, on canvas: inout Canvas) -> Rect {
        guard capture.collectsPhotos, !capture.photos.isEmpty, let box = context.thumbnailBox else { return rect }
        let instructionRows = TextWrap.lines([instruction], width: rect.width).count
        guard rect.height >= box.rows + 1 + instructionRows, rect.width >= box.columns else { return rect }
        let gap = 2
        for (index, photo) in capture.photos.enumerated() {
            let column = rect.column + index * (box.columns + gap)
            guard column + box.columns <= rect.right else { break }
            PreviewView(source: .staged(storedName: photo.storedName), box: box, context: context)?
                .draw(in: Rect(row: rect.row, column: column, width: box.columns, height: box.rows), on: &canvas)
            for row in rect.row..<(rect.row + box.rows) {
                canvas.addHitRegion(row: row, columns: column..<(column + box.columns), action: .photoClicked(index))
            }
        }
        return rect.inset(top: box.rows + 1)
    }

    /// The fields from the row the wheel scrolled to (never past the last screenful), drawn off
    /// screen whole and copied cell by cell, with marks where rows lie above and below.
    private func drawScrolledFields(in rect: Rect, on canvas: inout Canvas) -> Int {
        guard !rect.isEmpty else { return 0 }
        // Scrolled, rows lie above: the fields leave the marks' column free.
        let width = max(1, rect.width - min(ScrollWindow.markWidth(context.glyphs) + 1, rect.width - 1))
        var scratch = Canvas(size: ScreenSize(rows: 4 * fields.count + 40, columns: width), context: context)
        let needed = FieldListView(fields: fields).draw(in: scratch.bounds, on: &scratch)
        let window = ScrollWindow(highlighted: nil, total: needed, rows: rect.height, from: capture.reviewScrollOffset)
        let grid = scratch.frame.grid
        for (offset, sourceRow) in window.range.enumerated() {
            var column = 0
            while column < width {
                let cell = grid[sourceRow, column]
                let wide = column + 1 < width && grid[sourceRow, column + 1].isContinuation
                if !cell.isContinuation {
                    canvas.put(cell.text, row: rect.row + offset, column: rect.column + column, width: wide ? 2 : 1, style: cell.style)
                }
                column += wide ? 2 : 1
            }
        }
        window.drawMarks(in: rect, on: &canvas)
        return window.range.count
    }

    /// The rows every field takes at `width`, drawn off screen.
    private func neededFieldRows(width: Int) -> Int {
        var scratch = Canvas(size: ScreenSize(rows: 4 * fields.count + 40, columns: max(1, width)), context: context)
        return FieldListView(fields: fields).draw(in: scratch.bounds, on: &scratch)
    }

    private var fields: [FieldListView.Field] {
        var fields: [FieldListView.Field] = []
        if let kind = capture.kind { fields.append(.init("Kind", kind.title)) }
        if capture.barcode == nil, capture.kind == .product {
            fields.append(.init("Code", "None", detail: "barcode skipped"))
        }
        if let barcode = capture.barcode {
            fields.append(.init("Code", context.line(barcode.value), detail: barcode.symbology.title))
            if let product = capture.product {
                fields.append(.init("Product", context.line(product.summary)))
            }
            for field in barcode.fields {
                fields.append(.init(field.label, context.line(field.value)))
            }
        }
        fields.append(capture.request.map { .init("Request", context.line($0.title)) } ?? .init("Request", "None", style: .dim))
        if capture.collectsPhotos {
            for (index, photo) in capture.photos.enumerated() {
                fields.append(.init(index == 0 ? "Photos" : "", context.line(photo.originalName), detail: PhotoFacts.describe(photo, glyphs: context.glyphs)))
                // Why a staged photo has no preview, when it cannot have one.
                if let box = context.thumbnailBox, let failure = PreviewView(source: .staged(storedName: photo.storedName), box: box, context: context)?.failure {
                    fields.append(.init("", "\(context.glyphs.error) \(failure)", style: .error))
                }
            }
        }
        // The note goes last so a long one cannot push the other fields off the screen.
        if capture.kind == .note {
            fields.append(.init("Note", paragraphs: context.lines(capture.note.text)))
        }
        return fields
    }
}
