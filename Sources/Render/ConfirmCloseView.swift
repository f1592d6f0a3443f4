import CaptureMode
import Foundation
import TabShell

/// Asked when Close would delete staged photos: a centred box with Discard and Keep.
/// Modal: the buttons underneath stop answering while it shows.
struct ConfirmCloseView {
    let capture: CaptureState
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        canvas.removeHitRegions()
        canvas.hideCursor()
        let bounds = canvas.bounds
        let width = min(bounds.width - 2, 52)
        let count = capture.photos.count
        let message = TextLayout.wrap(
            ["Close deletes the \(count == 1 ? "photo" : "\(count) photos") copied so far. Nothing is saved."],
            width: max(1, width - 4)
        )
        let rows = min(message.count, max(0, bounds.height - 6))
        let box = bounds.centered(width: width, height: rows + 4)
        canvas.clearSides(of: box)
        canvas.box(box, fill: .alert)
        let inside = box.inset(top: 1, left: 2, bottom: 1, right: 2)
        canvas.put("Discard this capture?", row: inside.row, column: inside.column, width: inside.width, style: .heading)
        canvas.putWrapped(message, in: inside.inset(top: 1).split(top: rows).top, style: .alert)
        let buttons = inside.line(inside.height - 1)
        let discard = "[ Discard (y) ]", keep = "[ Keep (n) ]"
        let total = discard.count + 2 + keep.count
        let start = buttons.column + max(0, (buttons.width - total) / 2)
        let discardWidth = canvas.put(discard, row: buttons.row, column: start, width: buttons.right - start, style: .button)
        canvas.addHitRegion(row: buttons.row, columns: start..<(start + discardWidth), action: .capture(.closeConfirmed))
        let keepStart = start + discardWidth + 2
        if keepStart < buttons.right {
            let keepWidth = canvas.put(keep, row: buttons.row, column: keepStart, width: buttons.right - keepStart, style: .button)
            canvas.addHitRegion(row: buttons.row, columns: keepStart..<(keepStart + keepWidth), action: .capture(.closeCancelled))
        }
    }
}
