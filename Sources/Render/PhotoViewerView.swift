import CaptureMode
import Foundation
import TabShell

/// One photo as large as the screen allows, centred; under it the photo's place in the record
/// ("2/3") and its facts (name, format, pixels, bytes), then the hint line. While the picture
/// is being made it says so; a photo that cannot be shown gets its one sentence instead.
struct PhotoViewerView {
    let viewer: PhotoViewerState
    let state: AppState
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        let bounds = canvas.bounds
        let box = PreviewBoxes.viewer(for: state.size)
        let area = Rect(row: 0, column: 0, width: box.columns, height: min(box.rows, bounds.height))
        let photo = viewer.current
        if let preview = PreviewView(source: photo.source, box: box, alignment: .center, context: context) {
            switch preview.content {
            case .image:
                preview.draw(in: area, on: &canvas)
            case .loading:
                canvas.putCentered([Span("Loading \(context.line(photo.name))\(context.glyphs.ellipsis)", .dim)], in: area.line(area.height / 2))
            case let .failed(sentence):
                drawSentence("\(context.glyphs.error) \(sentence)", in: area, style: .error, on: &canvas)
            }
        } else {
            // A watcher is sent a photo's facts, never its file.
            let sentence = state.environment.isWatching ? PhotoFacts.notShownToWatchers : "Photo previews are off."
            drawSentence(sentence, in: area, style: .dim, on: &canvas)
        }
        var factsLine = bounds.line(bounds.height - 2).inset(left: 1, right: 1)
        if let notice = UnreachableDatabaseNotice.of(state, context: context) {
            // The viewer has no heading: the database's notice takes the right of the facts' line.
            let columns = canvas.putRightAligned([Span(notice.text(fitting: factsLine.width / 2), notice.style)], in: factsLine)
            factsLine = factsLine.inset(right: factsLine.right - columns.lowerBound + 2)
        }
        drawFacts(of: photo, in: factsLine, on: &canvas)
        canvas.anchor(.content, row: factsLine.row, column: factsLine.column)
        HintLineView(state: state, context: context).draw(in: bounds.line(bounds.height - 1).inset(left: 1, right: 1), on: &canvas)
    }

    /// "2/3  label close-up.png · PNG · 1024×768 · 812.4 kB": the place and the facts stay whole,
    /// the name gives way.
    private func drawFacts(of photo: ViewerPhoto, in rect: Rect, on canvas: inout Canvas) {
        let facts = PhotoFacts.describe(photo, glyphs: context.glyphs)
        let place = "\(viewer.position)  "
        let tail = context.glyphs.separator + facts
        let nameWidth = max(0, rect.width - TextWidth.of(place) - TextWidth.of(tail))
        let name = TextLayout.truncate(context.line(photo.name), width: nameWidth, ellipsis: context.glyphs.ellipsis)
        canvas.put([Span(place, .heading), Span(name), Span(tail, .dim)], row: rect.row, column: rect.column, width: rect.width)
    }

    /// A sentence word-wrapped and centred in `rect`.
    private func drawSentence(_ sentence: String, in rect: Rect, style: CellStyle, on canvas: inout Canvas) {
        let width = max(1, min(rect.width - 2, 60))
        let lines = TextWrap.lines([context.line(sentence)], width: width)
        let top = rect.row + max(0, (rect.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < rect.bottom {
            canvas.putCentered([Span(line, style)], in: Rect(row: top + offset, column: rect.column, width: rect.width, height: 1))
        }
    }
}
