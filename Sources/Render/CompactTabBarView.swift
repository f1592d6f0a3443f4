import Foundation
import TabShell

/// The tab bar minimized while scrolling down (seed 004's `.onScrollDown`): one line that still
/// says where you are — the current tab, bracketed, and the Inbox badge — and the keys that
/// choose a tab, which bring the full bar back. A click on it restores the full bar on the same tab.
struct CompactTabBarView {
    let selectedTab: Tab
    let pendingCount: Int
    /// The keys that choose the tabs now ("1-4"), which also bring the full bar back; nil when
    /// none acts (under the help sheet), and then no hint is shown.
    var tabKeys: String? = nil
    let context: RenderContext

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let line = rect.line(0)
        canvas.fill(line)
        // Screen-reader mode says it in words: "Inbox (selected)".
        var spans = [Span(context.screenReader ? "\(selectedTab.title) (selected)" : "[\(selectedTab.title)]", .tabSelected)]
        if pendingCount > 0 {
            let count = pendingCount > 99 ? "99+" : String(pendingCount)
            // A space after the bracket, as the full bar has: "[Inbox] (3)", never "[Inbox](3)".
            if selectedTab == .inbox {
                spans += [Span(" "), Span("(\(count))", context.options.color ? .badge : .tabSelected)]
            } else {
                spans.append(Span("  Inbox (\(count))", .badge))
            }
        }
        if let tabKeys { spans.append(Span("  \(tabKeys): tabs", .dim)) }
        canvas.put(spans, row: line.row, column: line.column + 1, width: max(0, line.width - 2))
        canvas.addHitRegion(row: line.row, columns: line.columns, action: .tabChosen(selectedTab))
    }
}
