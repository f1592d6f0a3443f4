import Foundation
import TabShell

/// A centred box with a title, the message and an OK button, over whatever is underneath.
/// It is modal: the clickable regions underneath stop answering while it shows.
struct AlertView {
    let alert: Alert
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        canvas.removeHitRegions()
        canvas.hideCursor()
        let bounds = canvas.bounds
        let width = min(bounds.width - 2, 56)
        let textWidth = width - 4
        let message = TextLayout.wrap(context.lines(alert.message), width: textWidth)
        // Inside the border: title and button always; blank rows around the message while they
        // fit; the message cut (with an ellipsis) only when the screen is shorter than it.
        let room = bounds.height - 2 - (bounds.height >= 12 ? 2 : 0)
        let spacing = room >= message.count + 4 ? 1 : 0
        let messageRows = min(message.count, max(0, room - 2 - 2 * spacing))
        let box = bounds.centered(width: width, height: messageRows + 4 + 2 * spacing)
        canvas.clearSides(of: box)
        canvas.box(box, fill: .alert)

        let inside = box.inset(top: 1, left: 2, bottom: 1, right: 2)
        canvas.put(context.line(alert.title), row: inside.row, column: inside.column, width: inside.width, style: .heading)
        canvas.putWrapped(message, in: inside.inset(top: 1 + spacing).split(top: messageRows).top, style: .alert)
        let buttonRow = inside.line(inside.height - 1)
        let columns = canvas.putCentered([Span("[ OK ]", .button)], in: buttonRow)
        canvas.addHitRegion(row: buttonRow.row, columns: columns, action: .alertDismissed)
    }
}
