import CaptureMode
import Foundation
import TabShell

/// The note's text area: a box whose lines wrap at spaces, scrolled to keep the cursor in view.
struct NoteEditorView {
    let buffer: TextBuffer
    let isEditing: Bool
    let context: RenderContext

    /// One row on screen: part of a line of the note.
    private struct VisualRow {
        var text: EditableText
        var range: Range<Int>
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        canvas.box(rect, title: "Note", fill: .field)
        let inside = rect.inset(by: 1)
        guard !inside.isEmpty else { return }
        // Wrapping one cell short leaves room for the cursor after the last character of a row.
        let wrapWidth = max(1, inside.width - 1)
        let (line, column) = buffer.cursorPosition
        var rows: [VisualRow] = []
        var cursorRow = 0, cursorColumn = 0
        // Split the buffer's own characters (not its text re-read) so indices match its cursor.
        let lines = buffer.characters.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, characters) in lines.enumerated() {
            let text = EditableText(characters, sanitizer: context.sanitizer)
            let ranges = TextWrap.ranges(
                widths: text.glyphs.map(\.width),
                breaksAfter: characters.map { $0 == " " },
                width: wrapWidth
            )
            for (offset, range) in ranges.enumerated() {
                let isLast = offset == ranges.count - 1
                if index == line, range.contains(column) || (isLast && column == range.upperBound) {
                    cursorRow = rows.count
                    cursorColumn = text.width(of: range.lowerBound..<column)
                }
                rows.append(VisualRow(text: text, range: range))
            }
        }
        let first = max(0, cursorRow - inside.height + 1)
        for (offset, row) in rows.dropFirst(first).prefix(inside.height).enumerated() {
            row.text.draw(row.range, row: inside.row + offset, column: inside.column, width: inside.width, style: .field, on: &canvas)
        }
        if isEditing {
            canvas.setCursor(row: inside.row + cursorRow - first, column: inside.column + min(cursorColumn, inside.width - 1))
        }
    }
}
