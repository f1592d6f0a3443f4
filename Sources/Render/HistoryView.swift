import CaptureMode
import Domain
import Foundation
import TabShell

/// The History list: one record per row under a column header, read from the loaded window;
/// rows outside it show as placeholders until their page arrives. In a grouped browse mode the
/// first column names the group (request or kind) on the group's first row.
struct HistoryView: TabContent {
    let history: HistoryState
    let layout: Layout
    let context: RenderContext
    /// The keys that open capture now ("2 or +"), which the empty list names; nil when none does.
    var createKeys: String? = nil

    var heading: Heading {
        guard history.hasLoaded else { return Heading(title: Tab.history.title) }
        let total = history.totalCount
        return Heading(
            title: Tab.history.title,
            context: "\(history.browseMode.title)\(context.glyphs.separator)\(Count.noun(total, "record"))",
            position: total > 0 ? "\(Count.grouped(history.list.cursor + 1))/\(Count.grouped(total))" : nil
        )
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        guard history.hasLoaded else {
            canvas.putWrapped(["Loading\(context.glyphs.ellipsis)"], in: rect, style: .dim)
            return
        }
        guard history.totalCount > 0 else {
            let message = "Nothing captured yet" + (createKeys.map { " \(context.glyphs.dash) press \($0) to capture." } ?? ".")
            canvas.putBlocks([TextBlock(message, .dim)], in: rect)
            return
        }
        let (header, list) = rect.split(top: 1)
        let first = max(0, history.list.scrollOffset)
        let end = history.showsOnlyWindow ? history.window.start + history.window.rows.count : history.totalCount
        let indices = first..<max(first, min(end, first + min(layout.historyListRows, list.height)))
        let ages = indices.map { rowInMode(at: $0).map { context.age($0.createdAt) } ?? "" }
        // The request column only where the summary keeps a useful width.
        let wide = rect.width >= 60
        let columns = self.columns(wide: wide)
        let table = table(columns, ageWidth: max(3, ages.map(TextWidth.of).max() ?? 0))
        table.drawRow(columns.map { Span($0.title, .dim) }, in: header, on: &canvas)
        for (offset, index) in indices.enumerated() {
            let rowCells =
                rowInMode(at: index).map { row in
                    columns.map { cell($0, of: row, age: ages[offset], startsGroup: index == first || startsGroup(at: index)) }
                } ?? [Span(context.glyphs.ellipsis, .dim)]
            table.drawRow(rowCells, in: list.line(offset), selected: index == history.list.cursor, clicks: .rowClicked(index), on: &canvas)
        }
    }

    // MARK: - Columns

    private enum Column {
        case kind, summary, request, age
        /// Who captured the record; only when more than one person is in the data.
        case person
        /// The group's name, on the first row of each group.
        case group

        var title: String {
            switch self {
            case .kind: "Kind"
            case .summary: "Code or note"
            case .request: "Request"
            case .age: "Age"
            case .group: "Request"
            case .person: "By"
            }
        }
    }

    /// The row at `index` when the loaded window is in the mode showing (a page of the old order
    /// may still be loaded for a moment after `b`).
    private func rowInMode(at index: Int) -> HistoryRow? {
        history.window.mode == history.browseMode ? history.row(at: index) : nil
    }

    private func columns(wide: Bool) -> [Column] {
        var columns: [Column]
        switch history.browseMode {
        case .all, .byKind: columns = wide ? [.kind, .summary, .request, .age] : [.kind, .summary, .age]
        case .byRequest: columns = wide ? [.group, .kind, .summary, .age] : [.group, .summary, .age]
        case .byRequester: columns = wide ? [.group, .kind, .summary, .request, .age] : [.group, .summary, .age]
        }
        if history.window.hasSeveralPeople, let age = columns.lastIndex(of: .age) {
            columns.insert(.person, at: age)
        }
        return columns
    }

    private func table(_ columns: [Column], ageWidth: Int) -> Table {
        let wide = columns.count >= 4
        return Table(
            columns: columns.map { column in
                switch column {
                case .kind: .fixed(Table.kindWidth)
                case .summary: .flexible(3)
                case .request: .flexible(2)
                case .group: .flexible(2)
                case .age: .fixed(ageWidth, .trailing)
                case .person: .flexible(1)
                }
            }, gap: wide ? 2 : 1)
    }

    private func cell(_ column: Column, of row: HistoryRow, age: String, startsGroup: Bool) -> Span {
        switch column {
        case .kind:
            // By kind, the kind is the group: named once, on the group's first row.
            if history.browseMode == .byKind, !startsGroup { return Span("") }
            return Span(row.kind.title, history.browseMode == .byKind ? .heading : .normal)
        case .summary:
            return Span(context.line(row.summary))
        case .request:
            return row.requestTitle.map { Span(context.line($0)) } ?? Span(context.glyphs.dash, .dim)
        case .group:
            guard startsGroup else { return Span("") }
            if history.browseMode == .byRequester {
                return row.requester.map { Span(context.line($0), .heading) } ?? Span("No requester", .dim)
            }
            return row.requestTitle.map { Span(context.line($0), .heading) } ?? Span("No request", .dim)
        case .age:
            return Span(age, .dim)
        case .person:
            return row.capturedBy.map { Span(context.line($0)) } ?? Span(context.glyphs.dash, .dim)
        }
    }

    /// Whether the row at `index` begins a group: the row above is in another group, or not loaded.
    private func startsGroup(at index: Int) -> Bool {
        guard let row = rowInMode(at: index), let previous = rowInMode(at: index - 1) else { return true }
        switch history.browseMode {
        case .all: return false
        case .byKind: return row.kind != previous.kind
        case .byRequest: return row.requestID != previous.requestID
        case .byRequester: return row.requester != previous.requester
        }
    }
}
