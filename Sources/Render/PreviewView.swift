import Domain
import Foundation
import TabShell

/// A photo's preview in its box, or its placeholder: a dim ellipsis while it is being made, an
/// error mark when it cannot be (the screen showing it says why in words beside it, or, in the
/// viewer, in its place). Thumbnails sit at the top of their box, centred across it; the
/// viewer's picture is centred both ways.
struct PreviewView {
    enum Alignment { case top, center }

    /// What the placeholder shows, and what the view beside a thumbnail needs to say.
    enum Content: Equatable {
        case image(PreviewImage)
        case loading
        case failed(String)
    }

    let content: Content
    let box: CellBox
    let alignment: Alignment
    let context: RenderContext

    /// The preview of `source` in `box`: the image when it is ready (or a smaller one of the same
    /// photo while a new size is made), else its placeholder. Nil when previews are off.
    init?(source: PhotoSource, box: CellBox, alignment: Alignment = .top, context: RenderContext) {
        guard let request = context.previewRequest(for: source, box: box) else { return nil }
        switch context.previews.status(of: request) {
        case let .ready(image)?: content = .image(image)
        case let .failed(sentence)?: content = .failed(sentence)
        case .loading?, nil: content = context.previews.standIn(for: request).map(Content.image) ?? .loading
        }
        self.box = box
        self.alignment = alignment
        self.context = context
    }

    /// The sentence to show instead of the photo, if it cannot be shown.
    var failure: String? {
        if case let .failed(sentence) = content { return sentence }
        return nil
    }

    /// Draws the box's row `row` on `line` (the box's left edge at `line.column`).
    func drawRow(_ row: Int, on line: Rect, canvas: inout Canvas) {
        switch content {
        case let .image(image):
            let top = alignment == .top ? 0 : max(0, (box.rows - image.size.rows) / 2)
            let left = max(0, (box.columns - image.size.columns) / 2)
            let width = min(image.size.columns, line.width - left)
            guard width > 0 else { return }
            canvas.putPreviewRow(image, row: row - top, atRow: line.row, column: line.column + left, width: width)
        case .loading, .failed:
            // The placeholder's mark, centred on the box's middle row.
            guard row == (box.rows - 1) / 2 else { return }
            let (mark, style) = failure == nil ? (context.glyphs.ellipsis, CellStyle.dim) : (context.glyphs.error, .error)
            canvas.put(mark, row: line.row, column: line.column + max(0, (box.columns - TextWidth.of(mark)) / 2), width: min(box.columns, line.width), style: style)
        }
    }

    /// Draws the whole box with its top-left corner at `rect`'s (clipped to `rect`).
    func draw(in rect: Rect, on canvas: inout Canvas) {
        for row in 0..<min(box.rows, rect.height) {
            drawRow(row, on: rect.line(row), canvas: &canvas)
        }
    }
}
