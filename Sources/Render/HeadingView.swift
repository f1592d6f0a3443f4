import Foundation
import TabShell

/// The heading row (title, right-aligned context) and the rule under it.
struct HeadingView {
    let heading: Heading
    /// The database cannot be reached: said on the right in the context's place, before all else.
    var unreachable: UnreachableDatabaseNotice? = nil

    /// Draws into the first two rows of `rect`.
    func draw(in rect: Rect, on canvas: inout Canvas) {
        let titleRow = rect.line(0).inset(left: 1, right: 1)
        var badgeOnRule = heading.badge.flatMap { $0.isEmpty ? nil : $0 }
        canvas.fill(rect.line(0))
        if let unreachable {
            // The notice wins: the title gives up its end to it when both do not fit.
            let notice = unreachable.text(fitting: titleRow.width - TextWidth.of(heading.title) - 2)
            let noticeColumns = canvas.putRightAligned([Span(notice, unreachable.style)], in: titleRow)
            let titleWidth = max(0, noticeColumns.lowerBound - titleRow.column - 2)
            canvas.put(heading.title, row: titleRow.row, column: titleRow.column, width: titleWidth, style: .heading)
        } else {
            let titleWidth = canvas.put(heading.title, row: titleRow.row, column: titleRow.column, width: titleRow.width, style: .heading)
            // The context gives way to the title on narrow screens rather than squeezing it; the
            // badge joins the context when both fit, and goes to the rule below when not.
            let beside = [heading.context, heading.badge ?? ""].filter { !$0.isEmpty }.joined(separator: canvas.glyphs.separator)
            if !beside.isEmpty, titleWidth + 2 + TextWidth.of(beside) <= titleRow.width {
                canvas.putRightAligned([Span(beside, .dim)], in: titleRow)
                badgeOnRule = nil
            } else if !heading.context.isEmpty, titleWidth + 2 + TextWidth.of(heading.context) <= titleRow.width {
                canvas.putRightAligned([Span(heading.context, .dim)], in: titleRow)
            }
        }
        guard rect.height > 1 else { return }
        let ruleRow = rect.line(1)
        canvas.rule(ruleRow)
        // In screen-reader mode the rule is blank, and "12/40" reads better as "12 of 40".
        var shown = canvas.screenReader ? heading.position?.replacingOccurrences(of: "/", with: " of ") : heading.position
        if let badge = badgeOnRule {
            // The watch code is what a watcher needs: the position gives way to it, and it is
            // cut at its end (the watchers' names) only when the rule cannot hold it whole.
            let room = ruleRow.width - 4
            let positionRoom = shown.map { TextWidth.of($0) + 3 } ?? 0
            if TextWidth.of(badge) > room - positionRoom { shown = nil }
            let fitted = TextLayout.truncate(badge, width: room - (shown == nil ? 0 : positionRoom), ellipsis: canvas.glyphs.ellipsis)
            if !fitted.isEmpty { canvas.put([Span(" \(fitted) ", .dim)], row: ruleRow.row, column: ruleRow.column + 1, width: ruleRow.width - 1) }
        }
        if let position = shown, TextWidth.of(position) + 4 <= ruleRow.width {
            canvas.putRightAligned([Span(" \(position) ", .dim)], in: ruleRow.inset(right: 1))
        }
    }
}
