import Foundation
import TabShell

/// A centred box with a title, the message and its buttons, over whatever is underneath.
/// It is modal: the clickable regions underneath stop answering while it shows. The default
/// button (what Enter presses) is marked with the pointer, so it shows without colour too.
struct AlertView {
    let alert: Alert
    let context: RenderContext
    /// What a click on the button at an index sends: the shell's alert buttons by default;
    /// capture mode's own questions route theirs to the capture reducer.
    var buttonAction: (Int) -> AppAction = { .alertButtonPressed($0) }

    func draw(on canvas: inout Canvas) {
        canvas.removeHitRegions()
        canvas.hideCursor()
        canvas.forgetAnchors()
        let full = canvas.bounds
        let width = min(full.width - 2, 56)
        let textWidth = width - 4
        let message = TextWrap.lines(context.lines(alert.message), width: textWidth)
        let buttonRows = buttonLayout(width: textWidth)
        // Inside the border: title and buttons always; blank rows around the message while they
        // fit; the message cut (with an ellipsis) only when the screen is shorter than it.
        let fixed = 1 + buttonRows.count
        func rows(height: Int) -> (message: Int, spacing: Int) {
            let room = height - 2 - (height >= 12 ? 2 : 0)
            let spacing = room >= message.count + fixed + 2 ? 1 : 0
            return (min(message.count, max(0, room - fixed - 2 * spacing)), spacing)
        }
        // The rows screen-reader mode's announcement wants below: given while the message stays whole.
        let wanted = min(max(0, canvas.reservedBottomRows), max(0, full.height - 1))
        let reserved = (0...wanted).reversed().first { rows(height: full.height - $0).message == rows(height: full.height).message } ?? 0
        let bounds = full.inset(bottom: reserved)
        let (messageRows, spacing) = rows(height: bounds.height)
        let box = bounds.centered(width: width, height: messageRows + fixed + 2 + 2 * spacing)
        canvas.overlayBottom = box.row + box.height
        canvas.clearSides(of: box)
        canvas.box(box, fill: .alert)

        let inside = box.inset(top: 1, left: 2, bottom: 1, right: 2)
        canvas.put(context.line(alert.title), row: inside.row, column: inside.column, width: inside.width, style: .heading)
        canvas.putWrapped(message, in: inside.inset(top: 1 + spacing).split(top: messageRows).top, style: .alert)
        let firstButtonRow = inside.height - buttonRows.count
        for (offset, buttons) in buttonRows.enumerated() {
            drawButtons(buttons, in: inside.line(firstButtonRow + offset), on: &canvas)
        }
    }

    // MARK: - Buttons

    /// One button as drawn: its index in the alert and its label.
    private struct Label {
        var index: Int
        var text: String
    }

    private var pointer: String { context.glyphs.pointer + " " }

    /// Whether the default button carries the pointer: in a question (it is never the
    /// destructive one), and always in screen-reader mode, where it is the focused button.
    private var marksDefault: Bool { alert.isConfirmation || context.screenReader }

    /// The buttons' labels in rows: all on one row in the roomiest form that fits (with their
    /// letters, without, tight brackets), else one per row.
    private func buttonLayout(width: Int) -> [[Label]] {
        let forms: [(AlertButton) -> String] = [
            { button in "[ \(button.title)\(button.key.map { " (\($0))" } ?? "") ]" },
            { button in "[ \(button.title) ]" },
            { button in "[\(button.title)]" },
        ]
        for form in forms {
            let labels = alert.buttons.enumerated().map { Label(index: $0.offset, text: form($0.element)) }
            if rowWidth(labels) <= width { return [labels] }
        }
        let tight = forms[forms.count - 1]
        return alert.buttons.enumerated().map { [Label(index: $0.offset, text: tight($0.element))] }
    }

    /// Cells a row of buttons takes: two spaces between them, the pointer before the default.
    private func rowWidth(_ labels: [Label]) -> Int {
        let pointerWidth = marksDefault && labels.contains { $0.index == alert.defaultButton } ? TextWidth.of(pointer) : 0
        return labels.reduce(0) { $0 + TextWidth.of($1.text) } + 2 * max(0, labels.count - 1) + pointerWidth
    }

    private func drawButtons(_ labels: [Label], in row: Rect, on canvas: inout Canvas) {
        let total = min(rowWidth(labels), row.width)
        var column = row.column + max(0, (row.width - total) / 2)
        for label in labels {
            if label.index == alert.defaultButton {
                if marksDefault {
                    column += canvas.put(pointer, row: row.row, column: column, width: max(0, row.right - column), style: .alert)
                }
                canvas.anchor(.defaultButton, row: row.row, column: min(column, row.right - 1))
            }
            let used = canvas.put(label.text, row: row.row, column: column, width: max(0, row.right - column), style: .button)
            canvas.addHitRegion(row: row.row, columns: column..<(column + used), action: buttonAction(label.index))
            column += used + 2
        }
    }
}
