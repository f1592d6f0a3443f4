import CaptureMode
import Foundation
import Scanning
import TabShell

/// The barcode step: the code field, its inline error or the "scanned" toast, and what codes
/// are accepted.
struct BarcodeEntryView {
    let capture: CaptureState
    let context: RenderContext

    func draw(in rect: Rect, on canvas: inout Canvas) {
        var area = rect.inset(left: Table.gutterWidth)
        if area.height >= 6 {
            canvas.put("Type or scan the code; a scanner's Enter checks it.", row: area.row, column: area.column, width: area.width, style: .dim)
            area = area.inset(top: 2)
        }
        let label = "Code "
        canvas.put(label, row: area.row, column: area.column, style: .normal)
        TextFieldView(buffer: capture.barcodeInput, isEditing: capture.isEditingText, context: context)
            .draw(in: area.line(0).inset(left: label.count), on: &canvas)
        area = area.inset(top: 1)

        if let toast = capture.scanToast {
            // The catalog's name, once it has answered for this code.
            let product = capture.product.map { context.glyphs.separator + context.line($0.summary) } ?? ""
            let text = "\(context.glyphs.success) \(context.line(toast.summary))\(context.glyphs.separator)\(toast.symbology.title)\(product)"
            canvas.put(text, row: area.row, column: area.column, width: area.width, style: .toast)
            area = area.inset(top: 1)
        } else if let error = capture.barcodeError {
            let message = "\(context.glyphs.error) \(error.message)" + (capture.layoutHint.map { " " + $0 } ?? "")
            let used = canvas.putWrapped([message], in: area.split(top: max(1, area.height - 2)).top, style: .error)
            area = area.inset(top: used)
        } else if capture.kind == .batch, let message = capture.batchMessage {
            canvas.put("\(context.glyphs.success) " + context.line(message), row: area.row, column: area.column, width: area.width, style: .toast)
            area = area.inset(top: 1)
        }
        if area.height >= 2 { area = area.inset(top: 1) }
        if capture.kind == .batch {
            drawBatch(in: area, on: &canvas)
            return
        }
        canvas.putWrapped([acceptedCodes], in: area, style: .dim)
    }

    /// A batch: the running count, then the lines, the latest scan first so it is always in view.
    private func drawBatch(in rect: Rect, on canvas: inout Canvas) {
        guard rect.height > 0 else { return }
        let batch = capture.batch
        let removal = capture.config.keyNames.removeScan.map { "  (\($0) removes the last)" } ?? ""
        let count = batch.isEmpty ? "No scans yet. Scan away; each code is added at once." : batch.summary + removal
        canvas.put(count, row: rect.row, column: rect.column, width: rect.width, style: .heading)
        let list = rect.inset(top: 1)
        let quantityWidth = max(3, String(batch.lines.map(\.quantity).max() ?? 0).count + 1)
        // The latest first (unless the wheel scrolled to older ones); lines that do not fit are marked.
        let window = ScrollWindow(highlighted: nil, total: batch.lines.count, rows: list.height, from: capture.batchScrollOffset)
        defer { window.drawMarks(in: list, on: &canvas) }
        let latestFirst = Array(batch.lines.reversed())
        for (offset, line) in latestFirst[window.range].enumerated() {
            let row = window.rowsRect(in: list, glyphs: context.glyphs).line(offset)
            canvas.put((context.screenReader ? "x" : "\u{00D7}") + String(line.quantity), row: row.row, column: row.column, width: quantityWidth, style: .dim)
            canvas.put(
                [Span(context.line(line.barcode.summary)), Span("  " + line.barcode.symbology.title, .dim)],
                row: row.row, column: row.column + quantityWidth + 1, width: row.width - quantityWidth - 1
            )
        }
    }

    private var acceptedCodes: String {
        "Accepts EAN-13, EAN-8, UPC-A, UPC-E, GTIN-14, ITF-14, ISBN, ISSN and GS1 data (with FNC1, as (01)..., or a Digital Link), with or without an AIM prefix"
            + (capture.config.allowsFreeText ? ", or any text." : ".")
    }
}
