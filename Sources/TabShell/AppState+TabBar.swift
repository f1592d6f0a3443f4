import CaptureMode
import Foundation

/// Seed 004's tab bar that gets out of the way: its size follows the scroll.
extension AppState {
    /// The first row (or line) the list with focus shows, when the tab bar follows its scroll:
    /// the Inbox, History's list or a record, or Settings, with nothing over them; nil
    /// otherwise. A sheet scrolls its own box, not the tab's screen: the bar under it stays.
    var firstVisibleRowOfFocusedList: Int? {
        guard presentation == .none else { return nil }
        switch selectedTab {
        case .inbox: return inbox.list.scrollOffset
        case .history:
            guard let detail = history.detail else { return history.list.scrollOffset }
            return min(max(0, detail.scrollOffset), HistoryDetailLayout(layout: layout).maximumScrollOffset(of: detail))
        case .settings: return settingsScreen.list.scrollOffset
        }
    }

    /// Seed 004's `.onScrollDown`, judged by what the move would do to the screen: tried on a
    /// copy at the bar's present size, a move that scrolls the content down (its first visible
    /// row moves on) minimizes the bar; one that scrolls it up, or reaches the top of the list,
    /// restores it; nil, a move that scrolls nothing (the cursor walking within the screen),
    /// leaves the bar as it is, so it never changes shape and, on top, never moves the screen
    /// while nothing scrolls. The bar changes before the real move, so the list moves (and
    /// reads rows) once, in its new size.
    func tabBarSize(for move: ListMove) -> Bool? {
        guard settings.tabBarMinimizesOnScroll else { return false }
        guard let before = firstVisibleRowOfFocusedList else { return nil }
        var trial = self
        _ = trial.toFocus(.moved(move))
        guard let after = trial.firstVisibleRowOfFocusedList else { return nil }
        if after > before { return true }
        if after < before || trial.isAtTopOfFocusedList { return false }
        return nil
    }

    /// Whether the list with focus shows its first row at the top.
    var isAtTopOfFocusedList: Bool {
        switch selectedTab {
        case .inbox: return inbox.list.cursor == 0
        case .history: return history.detail.map { $0.scrollOffset == 0 } ?? (history.list.cursor == 0)
        case .settings: return settingsScreen.list.cursor == 0
        }
    }

    /// A tab key or a tab switch brings the full bar back; the tab shown next asks for its rows.
    mutating func restoreTabBar() {
        if isTabBarMinimized { applyTabBarSize(minimized: false) }
    }

    /// Changes the tab bar's size; with the bar on top the content starts a row higher, so the
    /// lists scroll by that row and nothing on screen jumps.
    mutating func applyTabBarSize(minimized: Bool) {
        isTabBarMinimized = minimized
        if settings.tabBarPosition == .top {
            let shift = minimized ? -1 : 1
            inbox.list.scrollOffset += shift
            history.list.scrollOffset += shift
            settingsScreen.list.scrollOffset += shift
            if var detail = history.detail {
                detail.scrollOffset = max(0, detail.scrollOffset + shift)
                history.replaceTop(with: detail)
            }
        }
        clampLists()
    }
}
