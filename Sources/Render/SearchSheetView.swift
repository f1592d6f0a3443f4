import CaptureMode
import Domain
import Foundation
import TabShell

/// The search sheet (seed 004's search role): a bordered box over the current tab, which stays
/// visible around it with the hints and the tab bar. The query field on top, a line saying what
/// matched, then the results, newest first; a click highlights a result, a second opens it.
struct SearchSheetView {
    let search: SearchState
    let layout: Layout
    let regions: ShellLayout
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        let box = regions.drawSheetFrame(title: "Search History", layout: layout, on: &canvas)
        // The results' selection pointer sits in a gutter; the field and the summary line up
        // with the results' text.
        let inside = box.inset(top: 1, left: 2, bottom: 1, right: 2)
        let text = inside.inset(left: Table.gutterWidth)
        guard !text.isEmpty else { return }

        let label = "Find "
        canvas.put(label, row: text.row, column: text.column, width: text.width, style: .heading)
        TextFieldView(buffer: search.query, isEditing: true, context: context, isSelected: search.isQuerySelected)
            .draw(in: text.line(0).inset(left: label.count), on: &canvas)
        guard text.height > 1 else { return }
        // Too short for the summary and a result: the highlighted result takes its row, marked.
        if text.height == 2, !search.results.isEmpty { return drawResults(in: inside.inset(top: 1), on: &canvas) }
        canvas.put(summary, row: text.row + 1, column: text.column, width: text.width, style: .dim)
        drawResults(in: inside.inset(top: 2), on: &canvas)
    }

    /// What the results are: a prompt, progress, or how many matched.
    private var summary: String {
        let ellipsis = context.glyphs.ellipsis
        if search.trimmedQuery.isEmpty { return "Type to find codes, notes and request titles." }
        if search.isSearching { return "Searching\(ellipsis)" }
        switch search.resultCount {
        case 0: return "No records match."
        case 1: return "1 record matches."
        case SearchState.resultLimit...: return "The \(search.resultCount) newest matches; type more to narrow."
        case let count: return "\(count) records match."
        }
    }

    private func drawResults(in rect: Rect, on canvas: inout Canvas) {
        guard !rect.isEmpty, !search.results.isEmpty else { return }
        // The model scrolls by `layout.searchResultRows`; where fewer rows fit, the highlight stays in view.
        var window = ScrollWindow(
            highlighted: search.list.cursor, total: search.results.count, rows: min(rect.height, layout.searchResultRows),
            from: search.list.scrollOffset)
        if let part = search.part {
            window.hiddenAbove = part.offset
            window.hiddenBelow = part.rowsAfter(held: search.results.count)
        }
        let visible = window.range
        defer { window.drawMarks(in: rect, on: &canvas) }
        let ages = visible.map { context.age(search.results[$0].createdAt) }
        let showsRequest = rect.width >= 56
        // Narrow, what matched keeps the room the kind would take.
        let showsKind = rect.width >= 32
        let ageWidth = max(3, ages.map(TextWidth.of).max() ?? 0)
        // At the least width what matched keeps the age's room too: it is what tells results
        // apart (`note number 1`, `note number 2`), and the age is in the record's detail.
        let showsAge = rect.width - Table.gutterWidth - ageWidth - 2 >= Self.leastMatchWidthBesideAge
        var columns: [Table.Column] = (showsKind ? [.fixed(Table.kindWidth)] : []) + [.flexible(3)]
        if showsRequest { columns.append(.flexible(2)) }
        if showsAge { columns.append(.fixed(ageWidth, .trailing)) }
        let table = Table(columns: columns)
        for (offset, index) in visible.enumerated() {
            let row = search.results[index]
            var cells = (showsKind ? [Span(row.kind.title, .dim)] : []) + [Span(context.line(row.summary))]
            if showsRequest {
                cells.append(row.requestTitle.map { Span(context.line($0)) } ?? Span(context.glyphs.dash, .dim))
            }
            if showsAge { cells.append(Span(ages[offset], .dim)) }
            let line = window.rowsRect(in: rect, glyphs: context.glyphs).line(offset)
            table.drawRow(cells, in: line, selected: index == search.list.cursor, clicks: .rowClicked(index), on: &canvas)
        }
    }

    /// The least width for what matched beside the age; narrower, the age is left out.
    private static let leastMatchWidthBesideAge = 16
}
