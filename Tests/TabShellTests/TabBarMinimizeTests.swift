import CaptureMode
import Foundation
import TabShell
import Testing

/// Seed 004's `.tabBarMinimizeBehavior(.onScrollDown)`: scrolling down a list minimizes the
/// tab bar; up, the top, a tab key or a tab switch restores it; a setting turns it off.
@Suite struct TabBarMinimizeTests {
    static func onHistory(position: TabBarPosition = .bottom, total: Int = 100) -> AppState {
        var settings = Settings.default  // minimizing on, as shipped
        settings.tabBarPosition = position
        var state = AppState.loaded(historyTotal: total, settings: settings)
        _ = state.send(.tabChosen(.history))
        return state
    }

    @Test func movingDownMinimizesAndTheListGainsARow() {
        var state = Self.onHistory()
        let rows = state.layout.historyListRows
        _ = state.send(.listMoved(.down))
        #expect(state.isTabBarMinimized)
        #expect(state.layout.historyListRows == rows + 1)
    }

    @Test(arguments: [ListMove.up, .pageUp, .home])
    func movingUpRestores(move: ListMove) {
        var state = Self.onHistory()
        _ = state.send([.listMoved(.down), .listMoved(.down), .listMoved(.down)])
        _ = state.send(.listMoved(move))
        #expect(!state.isTabBarMinimized)
    }

    @Test func aTabKeyOrSwitchRestores() {
        var state = Self.onHistory()
        _ = state.send(.listMoved(.down))
        _ = state.send(.tabChosen(.history))
        #expect(!state.isTabBarMinimized)
        _ = state.send(.listMoved(.down))
        _ = state.send(.nextTabRequested)
        #expect(!state.isTabBarMinimized)
    }

    @Test func theSettingNeverKeepsTheBar() {
        var state = Self.onHistory()
        state.settings.tabBarMinimizesOnScroll = false
        _ = state.send([.listMoved(.down), .listMoved(.pageDown)])
        #expect(!state.isTabBarMinimized)
    }

    @Test func capturesAndAlertsDoNotMinimize() {
        var state = Self.onHistory()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note)), .listMoved(.down)])
        #expect(!state.isTabBarMinimized)
    }

    /// The screen row an absolute list row is drawn on (the heading sits under a top bar).
    static func screenRow(of index: Int, in state: AppState) -> Int {
        let barRows = state.isTabBarMinimized ? 1 : 2
        let contentTop = state.settings.tabBarPosition == .top ? barRows + 2 : 2
        return contentTop + index - state.history.list.scrollOffset
    }

    @Test(arguments: [TabBarPosition.bottom, .top])
    func nothingOnScreenJumpsWhenTheBarMinimizes(position: TabBarPosition) {
        var state = Self.onHistory(position: position)
        _ = state.send(Array(repeating: AppAction.listMoved(.down), count: 30))
        _ = state.send(Array(repeating: AppAction.listMoved(.up), count: 5))
        #expect(!state.isTabBarMinimized)
        let item = state.history.list.cursor
        let before = Self.screenRow(of: item, in: state)
        _ = state.send(.listMoved(.down))
        #expect(state.isTabBarMinimized)
        #expect(Self.screenRow(of: item, in: state) == before, "\(position): row \(item) moved on screen")
    }
}
