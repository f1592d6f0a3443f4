import CaptureMode
import Foundation

/// Seed 004's tab bar that gets out of the way: its size follows the scroll.
extension AppState {
    /// Seed 004's `.onScrollDown`: moving down a list (Inbox, History, a record, help) minimizes
    /// the tab bar; moving up or reaching the top restores it. The list gains the row at once and
    /// its lines stay where they are on screen.
    func tabBarSize(for move: ListMove) -> Bool? {
        guard settings.tabBarMinimizesOnScroll else { return false }
        switch presentation {
        case .none, .sheet(.help): break
        default: return nil
        }
        switch move {
        case .down, .pageDown, .end: return true
        case .up, .pageUp, .home: return false
        }
    }

    /// Whether the list with focus shows its first row at the top.
    var isAtTopOfFocusedList: Bool {
        if case let .sheet(.help(help)) = presentation { return help.scrollOffset == 0 }
        switch selectedTab {
        case .inbox: return inbox.list.cursor == 0
        case .history: return history.detail.map { $0.scrollOffset == 0 } ?? (history.list.cursor == 0)
        case .settings: return settingsScreen.list.cursor == 0
        case .create: return true
        }
    }

    /// Changes the tab bar's size; with the bar on top the content starts a row higher, so the
    /// lists scroll by that row and nothing on screen jumps.
    mutating func setTabBarMinimized(_ minimized: Bool) -> [AppEffect] {
        guard minimized != isTabBarMinimized else { return [] }
        applyTabBarSize(minimized: minimized)
        // History on screen may show a row more than it has loaded.
        return selectedTab == .history && presentation == .none ? toHistory(.rowsNeeded) : []
    }

    /// A tab key or a tab switch brings the full bar back; the tab shown next asks for its rows.
    mutating func restoreTabBar() {
        if isTabBarMinimized { applyTabBarSize(minimized: false) }
    }

    /// This state with the tab bar at the other size: every list's scroll moved as
    /// `setTabBarMinimized` moves it (what a tab switch may change besides the selection).
    public func adjustingTabBar(minimized: Bool) -> AppState {
        var state = self
        if minimized != isTabBarMinimized { state.applyTabBarSize(minimized: minimized) }
        return state
    }

    mutating func applyTabBarSize(minimized: Bool) {
        isTabBarMinimized = minimized
        if settings.tabBarPosition == .top {
            let shift = minimized ? -1 : 1
            inbox.list.scrollOffset += shift
            history.list.scrollOffset += shift
            settingsScreen.list.scrollOffset += shift
        }
        clampLists()
    }
}
