import CaptureMode
import TabShell
import Testing

/// Each tab keeps its own state: cursors, scroll offsets and History's stack.
@Suite("Shell: per-tab state")
struct TabStateTests {
    /// A state where every tab has moved away from its defaults.
    static func busyState() -> AppState {
        var state = AppState.loaded(requests: (1...30).map { request($0) }, historyTotal: 500)
        _ = state.send([.listMoved(.end), .listMoved(.up), .listMoved(.up), .listMoved(.up)])
        _ = state.send([.tabChosen(.history), .listMoved(.pageDown), .listMoved(.down), .rowActivated])
        _ = state.send([.tabChosen(.settings), .listMoved(.down), .listMoved(.down), .listMoved(.down)])
        return state
    }

    @Test("the busy state really moved every tab")
    func busyStateIsBusy() {
        let state = Self.busyState()
        #expect(state.inbox.list == ListPosition(cursor: 26, scrollOffset: 14))
        #expect(state.history.list.cursor == 18)
        #expect(state.history.stack.count == 1)
        #expect(state.settingsScreen.list.cursor == 3)
    }

    @Test("tab state survives switching tabs")
    func survivesTabSwitches() {
        var state = Self.busyState()
        let (inbox, history, settings) = (state.inbox, state.history, state.settingsScreen)
        _ = state.send([.tabChosen(.inbox), .nextTabRequested, .nextTabRequested, .previousTabRequested, .tabChosen(.settings)])
        #expect(state.inbox == inbox)
        #expect(state.history == history)
        #expect(state.settingsScreen == settings)
    }

    @Test("tab state survives opening and closing capture")
    func survivesCapture() {
        var state = Self.busyState()
        let (inbox, history, settings) = (state.inbox, state.history, state.settingsScreen)
        _ = state.send([
            .tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("x")),
            .listMoved(.down), .rowActivated, .escapePressed, .capture(.closeConfirmed),
        ])
        #expect(state.presentation == .none)
        #expect(state.inbox == inbox)
        #expect(state.history == history)
        #expect(state.settingsScreen == settings)
    }

    @Test("a resize keeps cursors and History's stack; scrolling follows the new height")
    func survivesResize() {
        var state = Self.busyState()
        let (inbox, history, settings) = (state.inbox, state.history, state.settingsScreen)
        _ = state.send(.resized(state.size))
        #expect(state.inbox == inbox)
        #expect(state.history == history)
        #expect(state.settingsScreen == settings)

        _ = state.send(.resized(ScreenSize(rows: 10, columns: 40)))
        #expect(state.inbox.list.cursor == inbox.list.cursor)
        #expect(state.history.list.cursor == history.list.cursor)
        #expect(state.history.stack == history.stack)
        #expect(state.settingsScreen.list.cursor == settings.list.cursor)
    }

    @Test("a resize scrolls the cursor into view and never past the end")
    func resizeKeepsCursorVisible() {
        var state = AppState.loaded(requests: (1...30).map { request($0) })
        _ = state.send(.listMoved(.end))
        #expect(state.inbox.list == ListPosition(cursor: 29, scrollOffset: 30 - state.layout.inboxListRows))

        _ = state.send(.resized(ScreenSize(rows: 10, columns: 80)))
        #expect(state.inbox.list == ListPosition(cursor: 29, scrollOffset: 30 - state.layout.inboxListRows))

        _ = state.send(.resized(ScreenSize(rows: 3, columns: 10)))
        #expect(state.inbox.list == ListPosition(cursor: 29, scrollOffset: 29))

        _ = state.send([.resized(ScreenSize(rows: 24, columns: 80)), .listMoved(.home)])
        #expect(state.inbox.list == ListPosition(cursor: 0, scrollOffset: 0))
    }

    @Test("a resize clamps a cursor that is past the end of its list")
    func resizeClampsCursor() {
        var state = AppState.loaded(requests: (1...30).map { request($0) })
        state.inbox.list = ListPosition(cursor: 50, scrollOffset: 45)
        state.settingsScreen.list = ListPosition(cursor: SettingsRow.allCases.count + 2, scrollOffset: 0)
        _ = state.send(.resized(ScreenSize(rows: 12, columns: 80)))
        #expect(state.inbox.list == ListPosition(cursor: 29, scrollOffset: 30 - state.layout.inboxListRows))
        #expect(state.settingsScreen.list.cursor == SettingsRow.allCases.count - 1)
    }

    // MARK: - Inbox

    @Test("the Inbox badge is the pending count of the last load")
    func inboxBadge() {
        var state = AppState()
        _ = state.send(.inbox(.loaded(snapshot([request(1), request(2, status: .done), request(3)]))))
        #expect(state.inbox.pendingCount == 2)
        #expect(state.inbox.hasLoaded)
        _ = state.send(.inbox(.loaded(snapshot([request(3)]))))
        #expect(state.inbox.pendingCount == 1)
    }

    @Test("a reload that shortens the Inbox clamps its cursor")
    func inboxReloadClamps() {
        var state = AppState.loaded(requests: (1...10).map { request($0) })
        _ = state.send(.listMoved(.end))
        _ = state.send(.inbox(.loaded(snapshot([request(1), request(2)]))))
        #expect(state.inbox.list.cursor == 1)
        _ = state.send(.inbox(.loaded(snapshot([]))))
        #expect(state.inbox.list == ListPosition())
    }

    @Test("a reload where the chosen request is done or gone un-chooses it")
    func inboxReloadDropsStaleChoice() {
        var state = AppState.loaded(requests: [request(1), request(2)])
        _ = state.send(.inbox(.choiceToggled))
        _ = state.send(.inbox(.loaded(snapshot([request(1), request(2)]))))
        #expect(state.inbox.chosenRequestID == 1)
        _ = state.send(.inbox(.loaded(snapshot([request(1, status: .done), request(2)]))))
        #expect(state.inbox.chosenRequestID == nil)
    }
}
