import CaptureMode
import Foundation
import TabShell

/// A one-line input between brackets, scrolled sideways to keep the cursor in view. The
/// brackets turn into arrows when text runs past either side.
///
/// The view is anchored at the end of the text (where typing and scanners add), and scrolls
/// left only as far as the cursor needs: the same picture a stateful editor would show.
struct TextFieldView {
    let buffer: TextBuffer
    let isEditing: Bool
    let context: RenderContext
    /// The whole text is selected (typing replaces it): drawn as a selected row.
    var isSelected = false

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let line = rect.line(0)
        guard line.width >= 3 else { return }
        let inner = line.inset(left: 1, right: 1)
        let text = EditableText(buffer.characters, sanitizer: context.sanitizer)
        let count = text.glyphs.count
        let cursor = min(buffer.cursor, count)
        // The first character shown: the text's end in view (with a cell for a cursor after it)...
        var start = count
        var used = 1
        while start > 0, used + text.glyphs[start - 1].width <= inner.width {
            start -= 1
            used += text.glyphs[start].width
        }
        // ...unless the cursor is further left; then it sits at the left edge.
        if isEditing { start = min(start, cursor) }
        canvas.fill(inner, style: .field)
        text.draw(start..<count, row: inner.row, column: inner.column, width: inner.width, style: isSelected ? .selectedRow : .field, on: &canvas)

        let glyphs = context.glyphs
        let runsOff = text.width(of: start..<count) > inner.width
        canvas.put(start > 0 ? glyphs.previousValue : "[", row: line.row, column: line.column, width: 1, style: .dim)
        canvas.put(runsOff ? glyphs.nextValue : "]", row: line.row, column: inner.right, width: 1, style: .dim)
        if isEditing {
            canvas.setCursor(row: inner.row, column: inner.column + text.width(of: start..<cursor))
        }
    }
}
