import Foundation
import TabShell

/// The tab bar: every tab centred in an equal slot, labels shrinking (title, short title, key
/// digit) until all fit, so no tab is ever dropped or hidden behind "More". The selected tab is
/// bracketed, which shows without colour; each slot is its tab's click target.
struct TabBarView {
    let selectedTab: Tab
    let pendingCount: Int
    /// Without colour the selected tab is reversed, badge and all.
    var color = true

    /// How much room labels take, from the richest to the tightest.
    private enum Density: CaseIterable {
        case roomyTitles, titles, shortTitles, keys, keysWithoutBadge

        /// Space inside the brackets and before the badge.
        var padding: String { self == .roomyTitles ? " " : "" }

        func name(of tab: Tab) -> String {
            switch self {
            case .roomyTitles, .titles: tab.title
            case .shortTitles: tab.shortTitle
            // The action tab keeps its "+": a bare digit would not say it creates.
            case .keys, .keysWithoutBadge: tab.role == .action ? "+" : String(tab.key)
            }
        }
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let line = rect.line(0)
        canvas.fill(line)
        if canvas.screenReader, drawInWords(in: line, on: &canvas) { return }
        let tabs = Tab.allCases
        let slots = tabs.indices.map { index in
            Rect(
                row: line.row, column: line.column + line.width * index / tabs.count,
                width: line.width * (index + 1) / tabs.count - line.width * index / tabs.count, height: 1
            )
        }
        // A content tab must fit with its brackets, since it may be the selected one; the
        // action tab is never selected. Unselected labels keep the brackets' room as spaces, so
        // nothing moves when the selection does.
        let density =
            Density.allCases.first { density in
                zip(tabs, slots).allSatisfy { tab, slot in
                    label(for: tab, density: density, selected: tab.role == .content).width <= slot.width
                }
            } ?? .keysWithoutBadge
        for (tab, slot) in zip(tabs, slots) {
            canvas.putCentered(label(for: tab, density: density, selected: tab == selectedTab), in: slot)
            canvas.addHitRegion(row: slot.row, columns: slot.columns, action: .tabChosen(tab))
        }
    }

    /// Screen-reader mode: the tabs left to right, the selected one saying so in words
    /// ("Inbox, 3 pending (selected)"), when they fit; false leaves the bracketed bar to draw.
    private func drawInWords(in line: Rect, on canvas: inout Canvas) -> Bool {
        let forms: [(Tab) -> String] = [
            { tab in tab.title + (tab == .inbox && pendingCount > 0 ? ", \(pendingCount) pending" : "") },
            { tab in tab.title + (tab == .inbox && pendingCount > 0 ? " (\(pendingCount))" : "") },
        ]
        let gap = 3
        for form in forms {
            let labels = Tab.allCases.map { tab in (tab, form(tab) + (tab == selectedTab ? " (selected)" : "")) }
            let width = labels.reduce(0) { $0 + TextWidth.of($1.1) } + gap * (labels.count - 1)
            guard width <= line.width - 2 else { continue }
            var column = line.column + 1
            for (tab, label) in labels {
                let style: CellStyle = tab == selectedTab ? .tabSelected : tab.role == .action ? .tabAction : .tab
                let used = canvas.put(label, row: line.row, column: column, style: style)
                canvas.addHitRegion(row: line.row, columns: column..<(column + used), action: .tabChosen(tab))
                column += used + gap
            }
            return true
        }
        return false
    }

    private func label(for tab: Tab, density: Density, selected: Bool) -> [Span] {
        let style: CellStyle = selected ? .tabSelected : tab.role == .action ? .tabAction : .tab
        var spans = [Span(density.name(of: tab), style)]
        if tab == .inbox, pendingCount > 0, density != .keysWithoutBadge {
            let count = pendingCount > 99 ? "99+" : String(pendingCount)
            spans += [Span(density.padding, style), Span("(\(count))", selected && !color ? .tabSelected : .badge)]
        }
        guard tab.role == .content else { return spans }
        let open = "[" + density.padding, close = density.padding + "]"
        return selected
            ? [Span(open, .tabSelected)] + spans + [Span(close, .tabSelected)]
            : [Span(String(repeating: " ", count: open.count))] + spans + [Span(String(repeating: " ", count: close.count))]
    }
}
