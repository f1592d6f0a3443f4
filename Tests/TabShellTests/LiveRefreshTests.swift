import CaptureMode
import Domain
import TabShell
import Testing

/// Another session (or `tabshell inbox add`) committed: what is on screen is read again, in place.
@Suite("Shell: changes made elsewhere")
struct LiveRefreshTests {
    @Test("the Inbox and the loaded History window are read again, even from another tab")
    func inboxAndHistoryFromAnotherTab() {
        var state = AppState.loaded(historyTotal: 40)
        #expect(state.selectedTab == .inbox)
        let effects = state.send(.databaseChangedElsewhere)
        #expect(effects.contains(.loadInbox(limit: InboxSnapshot.pageSize)))
        #expect(effects.historyRequests.count == 1, "the History count on its tab label must follow too")
    }

    @Test("History's rows on screen are read again where the cursor is, and the cursor stays")
    func historyReadAgainInPlace() {
        var state = HistoryBrowseTests.onHistory()
        let before = state.history.list
        let effects = state.send(.databaseChangedElsewhere)
        #expect(effects.contains(.loadInbox(limit: InboxSnapshot.pageSize)))
        #expect(effects.historyRequests.count == 1)
        HistoryBrowseTests.deliver(effects, to: &state)
        #expect(state.history.list == before)
        #expect(state.history.pendingLoad == nil)
    }

    @Test("an open record is read again; if it was deleted elsewhere it closes with a message")
    func openRecordReadAgain() throws {
        var state = HistoryBrowseTests.onHistory()
        _ = state.send(.rowActivated)
        let id = try #require(state.history.detail?.record.id)
        let effects = state.send(.databaseChangedElsewhere)
        #expect(effects.contains(.loadRecordDetail(id)))
        _ = state.send(.history(.detailLoaded(id: id, detail: nil)))
        #expect(state.history.detail == nil)
        #expect(state.status?.text.contains("no longer in History") == true)
    }

    @Test("a capture in progress is left alone: only the lists behind it are read again")
    func captureLeftAlone() {
        var state = AppState.loaded(historyTotal: 10)
        _ = state.send(.tabChosen(.create))
        let capture = state.presentation
        let effects = state.send(.databaseChangedElsewhere)
        #expect(state.presentation == capture)
        #expect(effects.allSatisfy { if case .loadInbox = $0 { true } else if case .loadHistory = $0 { true } else { false } })
    }
}
