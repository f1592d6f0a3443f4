import CaptureMode
import Domain
import Foundation
import TabShell

/// Capture mode, covering the whole screen: Close, the title and Done on the top row (always
/// visible, clickable), the request it answers, the phase's body, a message line and the hints.
struct CaptureView {
    let capture: CaptureState
    let state: AppState
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        let bounds = canvas.bounds
        drawTitleBar(in: bounds.line(0), on: &canvas)
        canvas.rule(bounds.line(1))
        UnreachableDatabaseNotice.of(state, context: context)?.draw(inRule: bounds.line(1), on: &canvas)
        var body = bounds.inset(top: 2, left: 1, bottom: 2, right: 1)
        if let request = capture.request {
            canvas.put(
                [Span("For: ", .dim), Span(context.line(request.title))],
                row: body.row, column: body.column + Table.gutterWidth, width: body.width - Table.gutterWidth
            )
            body = body.inset(top: 1)
        }
        if capture.steps.count > 1, body.height >= 6 {
            drawSteps(in: body.line(0).inset(left: Table.gutterWidth), on: &canvas)
            body = body.inset(top: 1)
        }
        // A blank row under the header reads better when there is room for it.
        if body.height >= 8 { body = body.inset(top: 1) }
        canvas.anchor(.content, row: body.row, column: body.column)
        drawBody(in: body, on: &canvas)
        drawMessage(in: bounds.line(bounds.height - 2).inset(left: 1, right: 1), on: &canvas)
        HintLineView(state: state, context: context).draw(in: bounds.line(bounds.height - 1).inset(left: 1, right: 1), on: &canvas)
        switch capture.overlay {
        case .confirmingClose: ConfirmCloseView(capture: capture, context: context).draw(on: &canvas)
        case .keys: drawKeys(on: &canvas)
        case .none: break
        }
    }

    /// `?`/F1: the keys of the phase underneath, framed over it.
    private func drawKeys(on canvas: inout Canvas) {
        let lines = KeyMap.helpLines(for: KeyMap.captureContexts(for: state) + [.global], in: state, unicode: context.symbolKeys)
        let bounds = canvas.bounds
        let width = min(bounds.width, 72)
        // The rows the model scrolls the list by (``Layout/captureKeysRows``), in a frame.
        let height = min(state.layout.captureKeysRows + 2, lines.count + 2)
        guard width >= 10, height >= 3 else { return }
        let box = Rect(row: 1 + (bounds.height - 2 - height) / 2, column: (bounds.width - width) / 2, width: width, height: height)
        canvas.clearSides(of: box)
        canvas.removeHitRegions(under: box)
        canvas.forgetAnchors()
        canvas.box(box, title: "Keys")
        HelpSheetView.drawLines(lines, scrollOffset: capture.keysScrollOffset, in: box, on: &canvas)
    }

    /// Where a multi-step capture is: `Barcode › Photos › Review`, the current step bright.
    private func drawSteps(in rect: Rect, on canvas: inout Canvas) {
        // In screen-reader mode the current step says so in words, not only by being bright.
        let separator = context.screenReader ? ", " : context.options.unicode ? " \u{203A} " : " > "
        var spans: [Span] = context.screenReader ? [Span("Steps: ", .dim)] : []
        for (index, step) in capture.steps.enumerated() {
            if index > 0 { spans.append(Span(separator, .dim)) }
            let current = step == capture.phase || (step == .review && capture.phase == .barcode && capture.barcode != nil && capture.kind == .barcode)
            spans.append(Span(Self.stepTitle(step) + (current && context.screenReader ? " (current)" : ""), current ? .heading : .dim))
        }
        canvas.put(spans, row: rect.row, column: rect.column, width: rect.width)
    }

    private static func stepTitle(_ phase: CapturePhase) -> String {
        switch phase {
        case .picker: "Kind"
        case .barcode: "Barcode"
        case .photos: "Photos"
        case .note: "Note"
        case .review: "Review"
        }
    }

    // MARK: - Title bar

    private var title: String {
        capture.kind.map { "Capture\(context.glyphs.separator)\($0.title)" } ?? "Capture"
    }

    /// Close and Done keep their place at every width; the title shrinks between them.
    private func drawTitleBar(in rect: Rect, on canvas: inout Canvas) {
        let line = rect.inset(left: 1, right: 1)
        let close = canvas.put("[ Close ]", row: line.row, column: line.column, style: .button)
        canvas.addHitRegion(row: line.row, columns: line.column..<(line.column + close), action: .capture(.closeTapped))
        let done = canvas.putRightAligned([Span("[ Done ]", .button)], in: line)
        canvas.addHitRegion(row: line.row, columns: done, action: .capture(.doneTapped))
        canvas.anchor(.doneButton, row: line.row, column: done.lowerBound)

        let middleStart = line.column + close + 1
        let middle = Rect(row: line.row, column: middleStart, width: done.lowerBound - 1 - middleStart, height: 1)
        let titleWidth = min(TextWidth.of(title), middle.width)
        // Centred on the screen when it fits there, otherwise in the room between the buttons.
        let centred = rect.column + (rect.width - titleWidth) / 2
        let column = min(max(centred, middle.column), middle.right - titleWidth)
        canvas.put(title, row: line.row, column: column, width: titleWidth, style: .heading)
    }

    // MARK: - Body

    private func drawBody(in rect: Rect, on canvas: inout Canvas) {
        switch capture.phase {
        case .picker:
            CapturePickerView(capture: capture, kindKeys: KeyMap.kindKeys(in: state, unicode: context.symbolKeys), context: context).draw(in: rect, on: &canvas)
        case .barcode:
            BarcodeEntryView(capture: capture, context: context).draw(in: rect, on: &canvas)
        case .photos:
            PhotosEntryView(capture: capture, context: context).draw(in: rect, on: &canvas)
        case .note:
            NoteEditorView(buffer: capture.note, isEditing: capture.isEditingText, context: context)
                .draw(in: rect, on: &canvas)
        case .review:
            CaptureReviewView(capture: capture, context: context).draw(in: rect, on: &canvas)
        }
    }

    /// Saving progress, or why Done did not go through.
    private func drawMessage(in rect: Rect, on canvas: inout Canvas) {
        if let saving = capture.saving {
            canvas.put(saving.line(ellipsis: context.glyphs.ellipsis), row: rect.row, column: rect.column, width: rect.width, style: .hint)
        } else if let notice = capture.notice {
            canvas.put("\(context.glyphs.error) \(context.line(notice))", row: rect.row, column: rect.column, width: rect.width, style: .error)
        }
    }
}
