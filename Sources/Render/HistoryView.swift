import CaptureMode
import Foundation
import TabShell

/// The History list: one record per row under a column header, read from the loaded window;
/// rows outside it show as placeholders until their page arrives.
struct HistoryView: TabContent {
    let history: HistoryState
    let layout: Layout
    let context: RenderContext

    var heading: Heading {
        guard history.hasLoaded else { return Heading(title: Tab.history.title) }
        let total = history.totalCount
        return Heading(
            title: Tab.history.title,
            context: Count.noun(total, "record"),
            position: total > 0 ? "\(Count.grouped(history.list.cursor + 1))/\(Count.grouped(total))" : nil
        )
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        guard history.hasLoaded else {
            canvas.putWrapped(["Loading\(context.glyphs.ellipsis)"], in: rect, style: .dim)
            return
        }
        guard history.totalCount > 0 else {
            let message = "Nothing captured yet \(context.glyphs.dash) press 2 or + to capture."
            canvas.putBlocks([TextBlock(message, .dim)], in: rect)
            return
        }
        let (header, list) = rect.split(top: 1)
        let first = max(0, history.list.scrollOffset)
        let indices = first..<max(first, min(history.totalCount, first + min(layout.historyListRows, list.height)))
        let ages = indices.map { history.row(at: $0).map { context.age($0.createdAt) } ?? "" }
        // The request column only where the summary keeps a useful width.
        let showsRequest = rect.width >= 60
        let table = table(showsRequest: showsRequest, ageWidth: max(3, ages.map(TextWidth.of).max() ?? 0))
        table.drawRow(headerCells(showsRequest: showsRequest), in: header, on: &canvas)
        for (offset, index) in indices.enumerated() {
            let rowCells = history.row(at: index).map { cells(for: $0, age: ages[offset], showsRequest: showsRequest) }
                ?? [Span(context.glyphs.ellipsis, .dim)]
            table.drawRow(rowCells, in: list.line(offset), selected: index == history.list.cursor, on: &canvas)
            let line = list.line(offset)
            canvas.addHitRegion(row: line.row, columns: line.columns, action: .rowClicked(index))
        }
    }

    /// Kind, summary, request and age.
    private func table(showsRequest: Bool, ageWidth: Int) -> Table {
        let kind = Table.Column.fixed(Self.kindWidth)
        let age = Table.Column.fixed(ageWidth, .trailing)
        return showsRequest
            ? Table(columns: [kind, .flexible(3), .flexible(2), age], gap: 2)
            : Table(columns: [kind, .flexible(), age])
    }

    private func headerCells(showsRequest: Bool) -> [Span] {
        let titles = showsRequest ? ["Kind", "Code or note", "Request", "Age"] : ["Kind", "Code or note", "Age"]
        return titles.map { Span($0, .dim) }
    }

    private func cells(for row: HistoryRow, age: String, showsRequest: Bool) -> [Span] {
        var cells = [Span(row.kind.title), Span(context.line(row.summary))]
        if showsRequest {
            cells.append(row.requestTitle.map { Span(context.line($0)) } ?? Span(context.glyphs.dash, .dim))
        }
        cells.append(Span(age, .dim))
        return cells
    }

    private static let kindWidth = CaptureKind.allCases.map { TextWidth.of($0.title) }.max() ?? 0
}
