import CaptureMode
import Foundation
import TabShell

/// One History record, pushed from the list (or opened from search): every field, each photo's
/// facts, the note in full, in the lines `HistoryDetailLayout` lays out (the same lines the
/// reducer scrolls by).
struct HistoryDetailView: TabContent {
    let detail: HistoryDetailState
    let context: RenderContext
    /// Every line, top to bottom.
    let lines: [DetailLine]
    /// Where labels and values go: labels as wide as the longest, or on lines of their own.
    let columns: HistoryDetailLayout.Columns
    private let rows: Int

    init(detail: HistoryDetailState, layout: Layout, context: RenderContext) {
        self.detail = detail
        self.context = context
        let detailLayout = HistoryDetailLayout(layout: layout)
        rows = detailLayout.rows
        columns = detailLayout.columns(of: detail)
        lines = detailLayout.lines(of: detail, glyphs: context.glyphs, now: context.now)
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
        canvas.anchor(.content, row: area.row, column: area.column)
        let labelWidth = columns.label
        for (offset, line) in lines[first..<min(lines.count, first + area.height)].enumerated() {
            let row = area.line(offset)
            // A label on a line of its own (stacked) has the whole line; beside a value, its column.
            let ownLine = line.parts.isEmpty && line.thumbnail == nil
            canvas.put(line.label, row: row.row, column: row.column, width: ownLine ? row.width : min(labelWidth, row.width), style: .dim)
            let value = row.inset(left: labelWidth)
            if let thumbnail = line.thumbnail, let box = context.thumbnailBox {
                drawPhotoLine(line, thumbnail: thumbnail, box: box, in: value, on: &canvas)
            } else if !value.isEmpty {
                canvas.put(Self.spans(of: line), row: value.row, column: value.column, width: value.width)
            }
        }
    }

    /// A line of a photo: its thumbnail's row, then its name (highlighted when it is the photo
    /// Enter shows), its facts, or why it cannot be shown.
    private func drawPhotoLine(_ line: DetailLine, thumbnail: DetailLine.Thumbnail, box: CellBox, in value: Rect, on canvas: inout Canvas) {
        guard let photos = detail.photos, photos.indices.contains(thumbnail.photo) else { return }
        let photo = photos[thumbnail.photo]
        let preview = photo.storedName.isEmpty ? nil : PreviewView(source: .stored(storedName: photo.storedName), box: box, context: context)
        preview?.drawRow(thumbnail.row, on: Rect(row: value.row, column: value.column, width: min(box.columns, value.width), height: 1), canvas: &canvas)
        // A click on the photo's thumbnail or name shows it full screen, as Enter does.
        canvas.addHitRegion(row: value.row, columns: value.columns, action: .photoClicked(thumbnail.photo))
        // The pointer goes between the thumbnail and the name: the label column is left of both.
        let text = value.inset(left: box.columns + HistoryDetailLayout.thumbnailGap)
        guard !text.isEmpty else { return }
        var spans = Self.spans(of: line)
        if let failure = preview?.failure, thumbnail.row == 2 || (thumbnail.row == 1 && box.rows < 3) {
            spans = [Span("\(context.glyphs.error) \(failure)", .error)]
        }
        canvas.put(spans, row: text.row, column: text.column, width: text.width)
        if thumbnail.row == 0, thumbnail.photo == detail.photoCursor {
            canvas.put(context.glyphs.pointer, row: value.row, column: text.column - 2, width: 1)
            canvas.anchor(.selectedRow, row: value.row, column: text.column - 2)
            canvas.restyle(Rect(row: text.row, column: text.column, width: min(text.width, spans.width), height: 1), style: .selectedRow)
        }
    }

    /// A line's parts, styled: values plain, remarks dim.
    private static func spans(of line: DetailLine) -> [Span] {
        line.parts.map { Span($0.text, $0.emphasis == .remark ? .dim : .normal) }
    }
}
