import CaptureMode
import Domain
import Foundation
import Testing

@testable import TabShell

/// Seed 004's `.tabBarMinimizeBehavior(.onScrollDown)`, judged by what the screen does: a move
/// that scrolls the content down (the list's first visible row moves on) minimizes the tab bar;
/// one that scrolls it up, the top, a tab key or a tab switch restores it; a move that scrolls
/// nothing leaves it as it is; a setting turns it off.
@Suite struct TabBarMinimizeTests {
    static func onHistory(position: TabBarPosition = .bottom, total: Int = 100) -> AppState {
        var state = AppState(settings: Self.settings(position), size: ScreenSize(rows: 24, columns: 80))
        Self.send(&state, .started, total: total)
        Self.send(&state, .tabChosen(.history), total: total)
        return state
    }

    static func settings(_ position: TabBarPosition) -> Settings {
        var settings = Settings.default  // minimizing on, as shipped
        settings.tabBarPosition = position
        return settings
    }

    /// Sends `action` and answers the History reads it asks for, as storage would.
    @discardableResult
    static func send(_ state: inout AppState, _ action: AppAction, total: Int = 100) -> [AppEffect] {
        let effects = state.send(action)
        for request in effects.historyRequests {
            _ = state.send(.history(.pageLoaded(page(for: request, total: total))))
        }
        return effects
    }

    static func send(_ state: inout AppState, _ move: ListMove, times: Int, total: Int = 100) {
        for _ in 0..<times { send(&state, .listMoved(move), total: total) }
    }

    /// The screen row of the heading: under a top bar, else the first row.
    static func headingRow(_ state: AppState) -> Int {
        state.settings.tabBarPosition == .top ? (state.isTabBarMinimized ? 1 : 2) : 0
    }

    /// The screen row an absolute History row is drawn on.
    static func screenRow(of index: Int, in state: AppState) -> Int {
        headingRow(state) + 2 + index - state.history.list.scrollOffset
    }

    @Test(arguments: [TabBarPosition.bottom, .top])
    func movesThatScrollNothingLeaveTheBarAndTheScreenAlone(position: TabBarPosition) {
        var state = Self.onHistory(position: position)
        let rows = state.layout.historyListRows
        for _ in 0..<(rows - 1) {
            Self.send(&state, .listMoved(.down))
            #expect(!state.isTabBarMinimized, "\(position): ↓ to row \(state.history.list.cursor) scrolled nothing")
            #expect(Self.headingRow(state) == Self.headingRow(Self.onHistory(position: position)))
        }
        for _ in 0..<(rows - 1) {
            Self.send(&state, .listMoved(.up))
            #expect(!state.isTabBarMinimized)
        }
    }

    @Test(arguments: [TabBarPosition.bottom, .top])
    func theFirstMoveThatScrollsMinimizesAndTheListGainsARow(position: TabBarPosition) {
        var state = Self.onHistory(position: position)
        let rows = state.layout.historyListRows
        Self.send(&state, .down, times: rows - 1)
        #expect(!state.isTabBarMinimized)
        let item = state.history.list.cursor
        let before = Self.screenRow(of: item, in: state)
        Self.send(&state, .listMoved(.down))
        #expect(state.isTabBarMinimized, "\(position): the list scrolled")
        #expect(state.layout.historyListRows == rows + 1)
        // The list took the bar's row: at the bottom nothing on screen moved; on top everything
        // moved up by that one row, heading included, as a scroll by one row would.
        let moved = position == .top ? 1 : 0
        #expect(Self.screenRow(of: item, in: state) == before - moved, "\(position): row \(item) moved by more than the bar's row")
        #expect(state.history.list.cursor == item + 1)
    }

    @Test(arguments: [TabBarPosition.bottom, .top])
    func walkingWithinTheScreenWhileMinimizedKeepsItMinimized(position: TabBarPosition) {
        var state = Self.onHistory(position: position)
        Self.send(&state, .down, times: 40)
        #expect(state.isTabBarMinimized)
        let offset = state.history.list.scrollOffset
        Self.send(&state, .up, times: 3)
        #expect(state.history.list.scrollOffset == offset, "the cursor walked up within the screen")
        #expect(state.isTabBarMinimized, "\(position): ↑ that scrolls nothing keeps the bar as it is")
        Self.send(&state, .down, times: 3)
        #expect(state.isTabBarMinimized)
    }

    @Test(arguments: [ListMove.up, .pageUp, .home])
    func scrollingUpRestores(move: ListMove) {
        var state = Self.onHistory()
        Self.send(&state, .down, times: 40)
        #expect(state.isTabBarMinimized)
        // Bring the cursor to the first visible row, so ↑ scrolls.
        Self.send(&state, .up, times: state.history.list.cursor - state.history.list.scrollOffset)
        #expect(state.isTabBarMinimized)
        Self.send(&state, .listMoved(move))
        #expect(!state.isTabBarMinimized, "\(move) scrolled the list up")
    }

    @Test func reachingTheTopRestores() {
        var state = Self.onHistory(position: .top)
        let rows = state.layout.historyListRows
        Self.send(&state, .down, times: rows)
        #expect(state.isTabBarMinimized)
        Self.send(&state, .up, times: rows)
        #expect(state.history.list.cursor == 0)
        #expect(!state.isTabBarMinimized, "at the top the full bar is back")
    }

    @Test func aTabKeyOrSwitchRestores() {
        var state = Self.onHistory()
        Self.send(&state, .down, times: 30)
        #expect(state.isTabBarMinimized)
        Self.send(&state, .tabChosen(.history))
        #expect(!state.isTabBarMinimized)
        Self.send(&state, .down, times: 30)
        Self.send(&state, .nextTabRequested)
        #expect(!state.isTabBarMinimized)
    }

    @Test func theSettingNeverKeepsTheBar() {
        var state = Self.onHistory()
        state.settings.tabBarMinimizesOnScroll = false
        Self.send(&state, .down, times: 30)
        Self.send(&state, .listMoved(.pageDown))
        #expect(!state.isTabBarMinimized)
    }

    @Test func capturesAndAlertsDoNotMinimize() {
        var state = Self.onHistory()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note))])
        for _ in 0..<30 { _ = state.send(.listMoved(.down)) }
        #expect(!state.isTabBarMinimized)
    }

    @Test func aRecordScrolledDownMinimizesOnlyWhenItScrolls() {
        var state = Self.onHistory(position: .top)
        let note = String(repeating: "A long note line that wraps. ", count: 80)
        let row = HistoryRow(
            id: 1, kind: .note, barcode: nil, note: note, requestID: nil, requestTitle: nil, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        state.history.stack = [HistoryDetailState(record: row, photos: [])]
        Self.send(&state, .listMoved(.down))
        #expect(state.isTabBarMinimized, "a record's ↓ scrolls it")
        #expect(state.history.detail?.scrollOffset == 1)
        Self.send(&state, .listMoved(.up))
        #expect(!state.isTabBarMinimized, "↑ scrolls it back: the bar returns")
        // On top the returning bar pushes the lines down a row: that is the scroll, no more.
        #expect(state.history.detail?.scrollOffset == 1)
        Self.send(&state, .listMoved(.up))
        #expect(state.history.detail?.scrollOffset == 0)
        #expect(!state.isTabBarMinimized)
    }

    /// Random moves on History and the Inbox, both bar positions: the bar changes size only when
    /// the move scrolled (a page, or the cursor leaving the rows the screen showed) or reached the
    /// top; a move within the screen changes neither the bar nor where the heading is.
    @Test(arguments: [TabBarPosition.bottom, .top])
    func theBarChangesOnlyWithTheScroll(position: TabBarPosition) {
        var random = SeededRandom(seed: position == .top ? 7 : 11)
        let moves: [ListMove] = [.down, .down, .down, .up, .up, .pageDown, .pageUp, .home, .end]
        var changes = 0
        for tab in [Tab.history, .inbox] {
            var state = AppState(settings: Self.settings(position), size: ScreenSize(rows: 24, columns: 80))
            Self.send(&state, .started)
            _ = state.send(.inbox(.loaded(snapshot((0..<60).map { request(Int64($0 + 1)) }))))
            Self.send(&state, .tabChosen(tab))
            for _ in 0..<400 {
                let move = moves[random.next(below: moves.count)]
                let list = tab == .history ? state.history.list : state.inbox.list
                let rows = tab == .history ? state.layout.historyListRows : state.layout.inboxListRows
                let shown = list.scrollOffset..<(list.scrollOffset + rows)
                let minimizedBefore = state.isTabBarMinimized
                let headingBefore = Self.headingRow(state)
                Self.send(&state, .listMoved(move))
                let cursor = tab == .history ? state.history.list.cursor : state.inbox.list.cursor
                // A page always scrolls by its page; any other move scrolls only to show the cursor.
                if move != .pageUp, move != .pageDown, shown.contains(cursor), cursor != 0 {
                    #expect(state.isTabBarMinimized == minimizedBefore, "\(tab) \(position): \(move) within the screen changed the bar")
                    #expect(Self.headingRow(state) == headingBefore)
                } else if state.isTabBarMinimized != minimizedBefore {
                    changes += 1
                }
            }
        }
        #expect(changes > 10, "the bar did follow the scroll")
    }
}

/// A small deterministic generator, so a failing sequence is the same on every run.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
