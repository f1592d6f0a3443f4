import CaptureMode
import Domain
import Testing

@testable import TabShell

/// Moving between tabs, and the order in which Esc unwinds what is showing.
@Suite("Shell: tabs and presentations")
struct NavigationTests {
    // MARK: - Tabs

    @Test("next cycles Inbox → History → Settings → Inbox and never lands on Create")
    func nextCycles() {
        var state = AppState.loaded()
        var visited: [ContentTab] = []
        for _ in 0..<6 {
            _ = state.send(.nextTabRequested)
            visited.append(state.selectedTab)
        }
        #expect(visited == [.history, .settings, .inbox, .history, .settings, .inbox])
    }

    @Test("previous cycles Inbox → Settings → History → Inbox")
    func previousCycles() {
        var state = AppState.loaded()
        var visited: [ContentTab] = []
        for _ in 0..<3 {
            _ = state.send(.previousTabRequested)
            visited.append(state.selectedTab)
        }
        #expect(visited == [.settings, .history, .inbox])
    }

    @Test("keys 1, 3 and 4 jump to their tab", arguments: [(Character("1"), Tab.inbox), ("3", .history), ("4", .settings)])
    func digitKeysJump(key: Character, tab: Tab) throws {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.settings))
        let action = try #require(KeyMap.action(for: .character(key), in: state))
        _ = state.send(action)
        #expect(state.selectedTab.tab == tab)
        #expect(state.presentation == .none)
    }

    @Test("key 2 and + open capture instead of selecting a tab", arguments: ["2", "+"] as [Character])
    func createKeys(key: Character) throws {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.history))
        let action = try #require(KeyMap.action(for: .character(key), in: state))
        _ = state.send(action)
        #expect(state.presentation.capture != nil)
        #expect(state.selectedTab == .history)
    }

    @Test("tab moves are ignored while capture or an alert is showing")
    func tabMovesIgnoredUnderModal() {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.create))
        let inCapture = state
        _ = state.send([.nextTabRequested, .previousTabRequested, .tabChosen(.settings)])
        #expect(state == inCapture)

        state.presentation = .alert(.requestRequired, over: .none)
        let underAlert = state
        _ = state.send([.nextTabRequested, .tabChosen(.settings)])
        #expect(state == underAlert)
    }

    @Test("choosing a tab while the help sheet shows dismisses the sheet")
    func tabChosenDismissesSheet() {
        var state = AppState.loaded()
        _ = state.send(.helpRequested)
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 0))))
        _ = state.send(.tabChosen(.settings))
        #expect(state.presentation == .none)
        #expect(state.selectedTab == .settings)
    }

    @Test("choosing Create while the help sheet shows replaces the sheet with capture")
    func createFromSheet() {
        var state = AppState.loaded()
        _ = state.send([.helpRequested, .tabChosen(.create)])
        #expect(state.presentation.capture != nil)
        #expect(state.presentation.sheet == nil)
    }

    // MARK: - Esc order

    @Test("Esc closes an alert first and restores the sheet under it, then the sheet")
    func escAlertThenSheet() {
        var state = AppState.loaded()
        _ = state.send(.helpRequested)
        state.presentation = .alert(.requestRequired, over: state.presentation)
        _ = state.send(.escapePressed)
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 0))))
        _ = state.send(.escapePressed)
        #expect(state.presentation == .none)
    }

    @Test("Esc closes an alert over capture back to the same capture, then closes capture")
    func escAlertThenCapture() throws {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.settings), .tabChosen(.create), .capture(.kindChosen(.barcode)), .capture(.textTyped("12"))])
        let capture = try #require(state.presentation.capture)
        state.presentation = .alert(Alert(title: "T", message: "M"), over: state.presentation)
        _ = state.send(.escapePressed)
        #expect(state.presentation == .fullScreenCapture(capture))
        _ = state.send(.escapePressed)
        #expect(state.presentation.capture?.isConfirmingClose == true, "a typed code is not dropped without asking")
        _ = state.send(.capture(.closeConfirmed))
        #expect(state.presentation == .none)
        #expect(state.selectedTab == .settings)
    }

    @Test("with nothing presented, Esc pops the History detail, then does nothing")
    func escPopsHistoryDetail() {
        var state = AppState.loaded(historyTotal: 5)
        _ = state.send([.tabChosen(.history), .listMoved(.down), .rowActivated])
        #expect(state.history.stack == [detailRoute(historyRow(at: 1, total: 5))])
        _ = state.send(.escapePressed)
        #expect(state.history.stack.isEmpty)
        let before = state
        _ = state.send(.escapePressed)
        #expect(state == before)
    }

    @Test("alertDismissed restores what was under the alert")
    func alertDismissedRestores() {
        var state = AppState.loaded()
        state.presentation = .alert(.requestRequired, over: .sheet(.help(HelpState(scrollOffset: 2))))
        _ = state.send(.alertDismissed)
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 2))))
    }

    // MARK: - Help

    @Test("? toggles the help sheet")
    func helpToggles() {
        var state = AppState.loaded()
        _ = state.send(.helpRequested)
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 0))))
        _ = state.send(.helpRequested)
        #expect(state.presentation == .none)
    }

    @Test("help does not open over capture or an alert")
    func helpNotOverModal() {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.create))
        let inCapture = state
        _ = state.send(.helpRequested)
        #expect(state == inCapture)

        state.presentation = .alert(.requestRequired, over: .none)
        let underAlert = state
        _ = state.send(.helpRequested)
        #expect(state == underAlert)
    }

    @Test("list keys scroll the help sheet within its lines, and a resize re-clamps it")
    func helpScrolls() throws {
        var state = AppState.loaded(size: ScreenSize(rows: 12, columns: 60))
        _ = state.send([.helpRequested, .listMoved(.down), .listMoved(.down)])
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 2))))
        _ = state.send(.listMoved(.up))
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 1))))
        _ = state.send(.listMoved(.end))
        let lines = KeyMap.helpLines(in: state, unicode: true).count
        let lastOffset = lines - state.layout.helpRows
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: lastOffset))))
        _ = state.send(.listMoved(.down))
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: lastOffset))))
        _ = state.send(.resized(ScreenSize(rows: 40, columns: 60)))
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: max(0, lines - state.layout.helpRows)))))
        _ = state.send(.listMoved(.home))
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 0))))
    }

    @Test("list moves under the help sheet leave the tab's list alone")
    func helpScrollLeavesListAlone() {
        var state = AppState.loaded(requests: (1...5).map { request($0) })
        _ = state.send(.helpRequested)
        _ = state.send(.listMoved(.down))
        #expect(state.inbox.list == ListPosition())
    }

    // MARK: - Quit

    @Test("quit asks the front end to quit")
    func quit() {
        var state = AppState.loaded()
        #expect(state.send(.quitRequested) == [.quit])
        #expect(state.isQuitting)
    }
}
