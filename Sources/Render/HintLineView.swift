import Foundation
import TabShell

/// The line of key hints ("Enter capture  ? keys"), or the status message while one is set.
struct HintLineView {
    let hints: [(keys: String, hint: String)]
    var status: StatusMessage?
    let context: RenderContext

    init(state: AppState, context: RenderContext) {
        hints = KeyMap.hints(for: state, unicode: context.options.unicode)
        status = state.status
        self.context = context
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let line = rect.line(0)
        canvas.fill(line)
        if let status {
            canvas.put(statusSpans(status), row: line.row, column: line.column, width: line.width)
        } else {
            canvas.put(fittedHints(width: line.width), row: line.row, column: line.column, width: line.width)
        }
    }

    private func statusSpans(_ status: StatusMessage) -> [Span] {
        let text = context.line(status.text)
        switch status.kind {
        case .info: return [Span(text, .hint)]
        case .success: return [Span("\(context.glyphs.success) \(text)", .success)]
        case .error: return [Span("\(context.glyphs.error) \(text)", .error)]
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
