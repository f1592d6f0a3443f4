import Foundation
import TabShell

/// The tab shell: heading, the selected tab's content, the hint line and the tab bar, placed
/// by `ShellLayout`.
struct ShellView {
    let state: AppState
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        let regions = ShellLayout(state: state)
        let content = self.content
        let unreachable = UnreachableDatabaseNotice.of(state, context: context)
        var heading = content.heading
        // Presenting or watching: the watch code and its watchers in every heading.
        heading.badge = state.environment.presenting.map(context.line)
        HeadingView(heading: heading, unreachable: unreachable).draw(in: regions.heading, on: &canvas)
        canvas.anchor(.content, row: regions.content.row, column: regions.content.column)
        content.draw(in: regions.content, on: &canvas)
        HintLineView(state: state, context: context).draw(in: regions.hints, roomAbove: regions.content.height + 1, on: &canvas)
        if state.isTabBarMinimized {
            let compact = CompactTabBarView(
                selectedTab: state.selectedTab.tab, pendingCount: state.inbox.pendingCount,
                tabKeys: KeyMap.tabKeysLabel(in: state, unicode: context.symbolKeys), context: context
            )
            compact.draw(in: regions.tabBar, on: &canvas)
        } else {
            canvas.rule(regions.tabBarRule)
            TabBarView(selectedTab: state.selectedTab.tab, pendingCount: state.inbox.pendingCount, color: context.options.color)
                .draw(in: regions.tabBar, on: &canvas)
        }
    }

    /// The selected tab's screen; History shows the top of its navigation stack.
    private var content: any TabContent {
        switch state.selectedTab {
        case .history:
            if let detail = state.history.detail {
                return HistoryDetailView(detail: detail, layout: state.layout, context: context)
            }
            return HistoryView(
                history: state.history, layout: state.layout, context: context,
                createKeys: KeyMap.keyPhrase(sending: .tabChosen(.create), in: state, unicode: context.symbolKeys)
            )
        case .settings:
            return SettingsView(state: state, context: context)
        case .inbox:
            return InboxView(inbox: state.inbox, layout: state.layout, context: context)
        }
    }
}
