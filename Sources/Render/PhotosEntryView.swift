import CaptureMode
import Foundation
import TabShell

/// The photos step: the path field (Tab completes), copy progress or why a file was refused,
/// and the staged photos with their facts; the highlighted one is what the removal key removes.
struct PhotosEntryView {
    let capture: CaptureState
    let context: RenderContext

    func draw(in rect: Rect, on canvas: inout Canvas) {
        var area = rect.inset(left: Table.gutterWidth)
        guard !area.isEmpty else { return }
        if area.height >= 8 {
            let prompt =
                capture.config.photosFromUploads
                ? "Type the name of one of your uploads; Tab lists them, Enter adds it."
                : "Type or paste an image file's path; Tab completes, Enter adds it."
            canvas.put(prompt, row: area.row, column: area.column, width: area.width, style: .dim)
            area = area.inset(top: 2)
        }
        let label = "File "
        canvas.put(label, row: area.row, column: area.column, style: .normal)
        TextFieldView(buffer: capture.photoPath, isEditing: capture.isEditingText, context: context)
            .draw(in: area.line(0).inset(left: label.count), on: &canvas)
        area = area.inset(top: 1)
        guard !area.isEmpty else { return }

        if let copy = capture.copy {
            let percent = copy.fraction.map { " \(Int(($0 * 100).rounded(.down)))%" } ?? ""
            let sizes = copy.totalBytes > 0 ? " (\(PhotoFacts.bytes(copy.copiedBytes)) of \(PhotoFacts.bytes(copy.totalBytes)))" : ""
            canvas.put("Copying \(context.line(copy.name))\(context.glyphs.ellipsis)\(percent)\(sizes)", row: area.row, column: area.column, width: area.width, style: .toast)
            area = area.inset(top: 1)
        } else if let message = capture.photoMessage {
            // A problem carries the error mark; matches and codes read are information, plain.
            let text = message.kind == .problem ? "\(context.glyphs.error) \(context.line(message.text))" : context.line(message.text)
            let used = canvas.putWrapped([text], in: area.split(top: min(2, area.height)).top, style: message.kind == .problem ? .error : .normal)
            area = area.inset(top: used)
        }
        if area.height >= 3 { area = area.inset(top: 1) }
        guard !area.isEmpty else { return }

        let heading = "Photos (\(capture.photos.count) of \(capture.config.maximumPhotos))"
        let used = canvas.put(heading, row: area.row, column: area.column, width: area.width, style: .heading)
        if context.thumbnailBox != nil, !capture.photos.isEmpty, capture.copy == nil, let key = capture.config.keyNames.viewPhoto {
            // The hint line is full on this step; the viewer's key (as the key table has it) is said here too.
            canvas.put("  \(key) full screen", row: area.row, column: area.column + used, width: area.width - used, style: .dim)
        }
        area = area.inset(top: 1)
        guard !capture.photos.isEmpty else {
            if !area.isEmpty {
                canvas.put("None yet. Done needs at least one.", row: area.row, column: area.column, width: area.width, style: .dim)
            }
            return
        }
        let list = area.inset(left: -Table.gutterWidth)
        if let box = context.thumbnailBox {
            if ThumbnailListView.fits(box: box, in: list) {
                let items = capture.photos.enumerated().map { index, photo in
                    ThumbnailListView.Item(
                        source: .staged(storedName: photo.storedName),
                        title: "\(index + 1). \(context.line(photo.originalName))",
                        facts: PhotoFacts.describe(photo, glyphs: context.glyphs),
                        codes: (capture.photoCodes[photo.storedName] ?? []).map { Span("\($0.symbology.title) \(context.line($0.summary))", .toast) }
                    )
                }
                return ThumbnailListView(items: items, highlighted: capture.photoCursor, box: box, context: context).draw(in: list, on: &canvas)
            }
        }
        let window = ScrollWindow(highlighted: capture.photoCursor, total: capture.photos.count, rows: list.height)
        let table = Table(columns: [.flexible(), .flexible()], gap: 2)
        defer { window.drawMarks(in: list, on: &canvas) }
        let rows = window.rowsRect(in: list, glyphs: context.glyphs)
        for (offset, index) in window.range.enumerated() {
            let photo = capture.photos[index]
            table.drawRow(
                [Span("\(index + 1). \(context.line(photo.originalName))"), Span(PhotoFacts.describe(photo, glyphs: context.glyphs), .dim)]
                    + (capture.photoCodes[photo.storedName] ?? []).map { Span("  \($0.symbology.title) \(context.line($0.summary))", .toast) },
                in: rows.line(offset),
                selected: index == capture.photoCursor,
                on: &canvas
            )
        }
    }
}
