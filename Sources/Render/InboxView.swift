import CaptureMode
import Domain
import Foundation
import Scanning
import TabShell

/// The Inbox tab: requests with their status, the highlighted one's body below the list. The
/// request a Done just answered shows in the success style for a moment.
struct InboxView: TabContent {
    let inbox: InboxState
    let layout: Layout
    let context: RenderContext

    var heading: Heading {
        let requests = inbox.requests
        let summary =
            inbox.pendingCount > 0
            ? "\(Count.grouped(inbox.pendingCount)) pending"
            : requests.isEmpty ? "" : "all done"
        let scrolls = inbox.listCount > layout.inboxListRows
        let grouping = inbox.groupsByRequester ? "By requester" : ""
        return Heading(
            title: Tab.inbox.title,
            context: [grouping, summary].filter { !$0.isEmpty }.joined(separator: context.glyphs.separator),
            // "200+" while more requests follow those read: the count is not known yet.
            position: scrolls
                ? "\(inbox.cursorInList + 1)/\(Count.grouped(inbox.listCount))\(inbox.hasMore ? "+" : "")" : nil
        )
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        guard inbox.hasLoaded else {
            canvas.putWrapped(["Loading\(context.glyphs.ellipsis)"], in: rect, style: .dim)
            return
        }
        guard !inbox.requests.isEmpty else { return drawEmptyState(in: rect, on: &canvas) }
        let (list, preview) = rect.split(top: layout.inboxListRows)
        drawList(in: list, on: &canvas)
        drawPreview(in: preview, on: &canvas)
    }

    // MARK: - List

    private func drawList(in rect: Rect, on canvas: inout Canvas) {
        let first = min(max(0, inbox.list.scrollOffset), inbox.requests.count)
        let visible = inbox.requests[first..<min(inbox.requests.count, first + rect.height)]
        let ages = visible.map { context.age($0.createdAt) }
        let showsKind = rect.width >= 36
        let showsFrom = inbox.hasRequesters && rect.width >= 30
        let table = table(showsKind: showsKind, showsFrom: showsFrom, ageWidth: ages.map(TextWidth.of).max() ?? 0)
        for (offset, (index, request)) in zip(visible.indices, visible).enumerated() {
            let line = rect.line(offset)
            let startsGroup = offset == 0 || inbox.requests[index - 1].requester != request.requester
            table.drawRow(
                cells(for: request, age: ages[offset], showsKind: showsKind, showsFrom: showsFrom, startsGroup: startsGroup),
                in: line,
                selected: index == inbox.list.cursor,
                clicks: .rowClicked(index),
                on: &canvas
            )
            // The request a Done just answered, for a moment; the pointer still marks the cursor.
            if request.id == inbox.highlightedRequestID { canvas.restyle(line, style: .success) }
        }
    }

    /// The chosen-request column exists only while a request is chosen; the kind column only
    /// where the title keeps a useful width.
    private var showsChosenColumn: Bool { inbox.chosenRequestID != nil }

    private func table(showsKind: Bool, showsFrom: Bool, ageWidth: Int) -> Table {
        // One cell for the marks; in screen-reader mode they are words ("pending", "done", "chosen").
        let glyphs = context.glyphs
        var columns: [Table.Column] = [.fixed(max(TextWidth.of(glyphs.pending), TextWidth.of(glyphs.done)))]
        if showsChosenColumn { columns.append(.fixed(TextWidth.of(glyphs.chosen))) }
        // Grouped, who asked leads the row (named on the group's first row); otherwise it follows the title.
        if showsFrom, inbox.groupsByRequester { columns.append(.flexible(1)) }
        columns.append(.flexible(3))
        if showsFrom, !inbox.groupsByRequester { columns.append(.flexible(1)) }
        if showsKind { columns.append(.fixed(Table.kindWidth)) }
        columns.append(.fixed(ageWidth, .trailing))
        return Table(columns: columns)
    }

    private func cells(for request: InboxRequest, age: String, showsKind: Bool, showsFrom: Bool, startsGroup: Bool) -> [Span] {
        let glyphs = context.glyphs
        let isDone = request.status == .done
        var cells = [isDone ? Span(glyphs.done, .success) : Span(glyphs.pending, .badge)]
        if showsChosenColumn {
            cells.append(request.id == inbox.chosenRequestID ? Span(glyphs.chosen, .badge) : Span(""))
        }
        if showsFrom, inbox.groupsByRequester {
            cells.append(
                !startsGroup ? Span("") : request.requester.map { Span(context.line($0), .heading) } ?? Span("No requester", .dim))
        }
        cells.append(Span(context.line(request.title), isDone ? .dim : .normal))
        if showsFrom, !inbox.groupsByRequester {
            cells.append(request.requester.map { Span(context.line($0), .dim) } ?? Span(""))
        }
        if showsKind { cells.append(Span(request.kind.title, .dim)) }
        cells.append(Span(age, .dim))
        return cells
    }

    // MARK: - Preview and empty state

    private func drawPreview(in rect: Rect, on canvas: inout Canvas) {
        guard rect.height >= 2, let request = inbox.highlightedRequest else { return }
        canvas.rule(rect.line(0))
        let body = context.lines(request.body).filter { !$0.isEmpty }
        let from = request.requester.map { ["From \(context.line($0))"] } ?? []
        let text = from + (body.isEmpty ? ["No details."] : body)
        canvas.putWrapped(text, in: rect.inset(top: 1, left: Table.gutterWidth), style: .dim)
    }

    private func drawEmptyState(in rect: Rect, on canvas: inout Canvas) {
        canvas.putBlocks(
            [
                TextBlock("No requests yet. Add one from a shell:"),
                TextBlock("tabshell inbox add --title \"Scan the pallet\" --kind barcode", .heading, indent: 2),
            ], in: rect)
    }
}
