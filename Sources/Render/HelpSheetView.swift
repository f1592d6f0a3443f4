import Foundation
import TabShell

/// Every key, in a bordered sheet over the current tab (which stays visible around it),
/// generated from the key table so it cannot drift from what the keys do.
struct HelpSheetView {
    /// What it lists: `KeyMap.helpLines(in:unicode:)`, the keys acting on the screen under it.
    let lines: [HelpLine]
    let scrollOffset: Int
    let layout: Layout
    let regions: ShellLayout
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        let box = regions.drawSheetFrame(title: "Keys", layout: layout, on: &canvas)
        Self.drawLines(lines, scrollOffset: scrollOffset, in: box, on: &canvas)
    }

    /// Draws help lines inside a framed box, from `scrollOffset`, with a position note when
    /// they do not all fit.
    static func drawLines(_ lines: [HelpLine], scrollOffset: Int, in box: Rect, on canvas: inout Canvas) {
        let inside = box.inset(top: 1, left: 2, bottom: 1, right: 2)
        guard !inside.isEmpty else { return }
        canvas.anchor(.overlayText, row: inside.row, column: inside.column)
        let first = min(max(0, scrollOffset), max(0, lines.count - 1))
        let visible = lines[first..<min(lines.count, first + inside.height)]
        let keyWidth = min(inside.width / 3, visible.map(keysWidth).max() ?? 0)
        for (offset, line) in visible.enumerated() {
            let row = inside.line(offset)
            switch line {
            case let .section(title):
                canvas.put(title, row: row.row, column: row.column, width: row.width, style: .heading)
            case let .binding(keys, help):
                canvas.put(keys, row: row.row, column: row.column + 1, width: keyWidth, style: .hintKey)
                canvas.put(help, row: row.row, column: row.column + 2 + keyWidth, width: row.width - 2 - keyWidth)
            }
        }
        if visible.count < lines.count {
            let position = " \(first + 1)-\(first + visible.count) of \(lines.count) "
            canvas.putRightAligned([Span(position, .dim)], in: Rect(row: box.bottom - 1, column: box.column, width: box.width - 2, height: 1))
        }
    }

    private static func keysWidth(_ line: HelpLine) -> Int {
        if case let .binding(keys, _) = line { return TextWidth.of(keys) + 1 }
        return 0
    }
}
