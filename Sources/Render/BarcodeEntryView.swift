import CaptureMode
import Foundation
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
            let text = "\(context.glyphs.success) \(context.line(toast.value))\(context.glyphs.separator)\(toast.symbology.title)"
            canvas.put(text, row: area.row, column: area.column, width: area.width, style: .toast)
            area = area.inset(top: 1)
        } else if let error = capture.barcodeError {
            let message = "\(context.glyphs.error) \(error.message)"
            let used = canvas.putWrapped([message], in: area.split(top: max(1, area.height - 2)).top, style: .error)
            area = area.inset(top: used)
        }
        if area.height >= 2 { area = area.inset(top: 1) }
        canvas.putWrapped([acceptedCodes], in: area, style: .dim)
    }

    private var acceptedCodes: String {
        let codes = Symbology.allCases.filter { $0 != .freeText }.map(\.title).joined(separator: ", ")
        return "Accepts \(codes)" + (capture.config.allowsFreeText ? ", or any text." : ".")
    }
}
