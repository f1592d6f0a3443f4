import Foundation
import TabShell

/// The line of key hints ("Enter capture  ? keys"), or the status message while one is set.
struct HintLineView {
    let hints: [(keys: String, hint: String)]
    var status: StatusMessage?
    let context: RenderContext

    init(state: AppState, context: RenderContext) {
        // A watcher's keys are its own; the presenter's would do nothing there.
        hints = state.environment.isWatching ? WatcherKey.hints : KeyMap.hints(for: state, unicode: context.symbolKeys)
        status = state.status
        self.context = context
    }

    /// Draws into `rect`'s first row. A status message too long for it is wrapped at spaces and
    /// takes up to `roomAbove` rows above it as well (covering what is there until the message
    /// goes), so a sentence is read whole rather than cut at the edge.
    func draw(in rect: Rect, roomAbove: Int = 0, on canvas: inout Canvas) {
        let line = rect.line(0)
        canvas.fill(line)
        if let status {
            drawStatus(status, in: line, roomAbove: max(0, roomAbove), on: &canvas)
        } else {
            canvas.put(fittedHints(width: line.width), row: line.row, column: line.column, width: line.width)
        }
    }

    private func drawStatus(_ status: StatusMessage, in line: Rect, roomAbove: Int, on canvas: inout Canvas) {
        let text = context.line(status.text)
        let mark = status.mark(context.glyphs)
        let style: CellStyle = status.kind == .info ? .hint : status.kind == .success ? .success : .error
        let indent = TextWidth.of(mark)
        var lines = TextWrap.lines(text, width: line.width - indent)
        guard lines.count > 1, line.width - indent >= 10, roomAbove > 0 else {
            canvas.put([Span(mark + text, style)], row: line.row, column: line.column, width: line.width)
            return
        }
        if lines.count > roomAbove + 1 {
            // What does not fit in the room goes on the last line, cut with an ellipsis.
            lines = Array(lines.prefix(roomAbove)) + [lines.dropFirst(roomAbove).joined(separator: " ")]
        }
        let area = Rect(row: line.row - (lines.count - 1), column: line.column, width: line.width, height: lines.count)
        canvas.removeHitRegions(under: area)
        for (offset, text) in lines.enumerated() {
            let row = area.line(offset)
            canvas.fill(row.inset(left: -1, right: -1))
            let lead = offset == 0 ? mark : String(repeating: " ", count: indent)
            canvas.put([Span(lead + text, style)], row: row.row, column: row.column, width: row.width)
        }
    }

    /// As many hints as fit, in table order; the help key is kept whenever any hint is dropped,
    /// so `?` stays discoverable on narrow screens.
    private func fittedHints(width: Int) -> [Span] {
        let separator = "  "
        let pairs = hints.map { [Span($0.keys, .hintKey), Span(" \($0.hint)", .hint)] }
        let widths = pairs.map(\.width)
        let total = widths.reduce(0, +) + separator.count * max(0, pairs.count - 1)
        var kept = Array(pairs.indices)
        if total > width {
            let help = hints.firstIndex { $0.keys == "?" }
            var budget = width - (help.map { widths[$0] + separator.count } ?? 0)
            kept = []
            for index in pairs.indices where index != help {
                let needed = widths[index] + (kept.isEmpty ? 0 : separator.count)
                guard needed <= budget else { break }
                budget -= needed
                kept.append(index)
            }
            if let help, widths[help] <= width { kept.append(help) }
        }
        return kept.enumerated().flatMap { offset, index in
            (offset == 0 ? [] : [Span(separator, .hint)]) + pairs[index]
        }
    }
}

extension StatusMessage {
    /// What goes before the message, so its kind shows without colour: the success or error
    /// mark and a space; nothing before a note.
    func mark(_ glyphs: Glyphs) -> String {
        switch kind {
        case .info: ""
        case .success: "\(glyphs.success) "
        case .error: "\(glyphs.error) "
        }
    }
}
