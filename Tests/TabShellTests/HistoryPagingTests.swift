import CaptureMode
import Domain
import TabShell
import Testing

/// History holds only a window of rows and asks storage for pages as the list scrolls.
@Suite("Shell: History paging")
struct HistoryPagingTests {
    static let total = 1000

    /// A state on History whose first page has been delivered.
    static func onHistory() -> AppState {
        var state = AppState.loaded(historyTotal: total)
        _ = state.send(.tabChosen(.history))
        return state
    }

    @Test("start-up asks for the Inbox and the first History page")
    func startedAsksForFirstPage() {
        var state = AppState()
        let viewport = state.layout.historyListRows
        #expect(state.send(.started) == [.loadInbox(limit: InboxSnapshot.pageSize), .loadHistory(HistoryPageRequest(start: 0, count: 3 * viewport))])
        #expect(state.history.pendingLoad == HistoryPageRequest(start: 0, count: 3 * viewport))
    }

    @Test("a delivered page that covers the screen asks for nothing more")
    func deliveredPageSettles() {
        var state = AppState()
        let first = state.send(.started).historyRequests
        #expect(first.count == 1)
        #expect(state.send(.history(.pageLoaded(page(for: first[0], total: Self.total)))) == [])
        #expect(state.history.totalCount == Self.total)
        #expect(state.history.pendingLoad == nil)
    }

    @Test("paging down asks for rows exactly when the visible rows leave the loaded window")
    func pageDownLoadsOnlyWhenNeeded() {
        var state = Self.onHistory()
        var loads = 0
        while state.history.list.cursor < Self.total - 1 {
            let window = state.history.window
            let effects = state.send(.listMoved(.pageDown))
            let first = state.history.list.scrollOffset
            let last = min(Self.total, first + state.layout.historyListRows)
            let covered = first >= window.start && last <= window.start + window.rows.count
            #expect(effects.historyRequests.isEmpty == covered, "rows \(first)..<\(last), window at \(window.start)")
            for pageRequest in effects.historyRequests {
                loads += 1
                #expect(pageRequest.start <= first && pageRequest.start + pageRequest.count >= last)
                #expect(state.send(.history(.pageLoaded(page(for: pageRequest, total: Self.total)))) == [])
            }
        }
        #expect(loads > 0)
        #expect(loads < Self.total / state.layout.historyListRows)
    }

    @Test("the same read is not asked for twice while it is pending")
    func noDuplicatePendingRequest() {
        var state = Self.onHistory()
        let requests = state.send([.listMoved(.pageDown), .listMoved(.pageDown), .listMoved(.pageDown)]).historyRequests
        #expect(requests.count == 1)
        #expect(state.send(.resized(state.size)) == [])
        #expect(state.send([.tabChosen(.inbox), .tabChosen(.history)]) == [])
        #expect(state.history.pendingLoad == requests.first)
    }

    @Test("a page arriving late does not re-issue the read still pending")
    func latePageDoesNotDuplicatePendingRequest() throws {
        var state = Self.onHistory()
        let nearby = try #require(
            state.send([.listMoved(.pageDown), .listMoved(.pageDown), .listMoved(.pageDown)]).historyRequests.first
        )
        let atEnd = try #require(state.send(.listMoved(.end)).historyRequests.first)
        #expect(atEnd != nearby)
        // Storage answers in order: the first read lands while the second is still running.
        let effects = state.send(.history(.pageLoaded(page(for: nearby, total: Self.total))))
        #expect(!effects.historyRequests.contains(atEnd), "\(atEnd) is still pending but was asked for again")
    }

    @Test("End puts the cursor on the last record and scrolls it into view")
    func endGoesToLastRecord() {
        var state = Self.onHistory()
        let effects = state.send(.listMoved(.end))
        let viewport = state.layout.historyListRows
        #expect(state.history.list == ListPosition(cursor: Self.total - 1, scrollOffset: Self.total - viewport))
        // Anchored on the last loaded row (storage reads the last page from the bottom anyway).
        let anchor = HistoryAnchor(position: 3 * viewport - 1, recordID: historyRow(at: 3 * viewport - 1, total: Self.total).id)
        #expect(
            effects.historyRequests
                == [HistoryPageRequest(start: Self.total - 2 * viewport, count: 3 * viewport, anchor: anchor)])
    }

    @Test("Enter on a loaded row pushes its detail; list keys are ignored there")
    func enterPushesDetail() {
        var state = Self.onHistory()
        _ = state.send([.listMoved(.down), .listMoved(.down), .rowActivated])
        #expect(state.history.stack == [detailRoute(historyRow(at: 2, total: Self.total))])
        let before = state
        #expect(state.send([.listMoved(.down), .rowActivated]) == [])
        #expect(state == before)
        _ = state.send(.history(.backRequested))
        #expect(state.history.stack.isEmpty)
    }

    @Test("Enter on a row that is not loaded yet does nothing")
    func enterOnUnloadedRow() {
        var state = Self.onHistory()
        _ = state.send(.listMoved(.end))
        _ = state.send(.rowActivated)
        #expect(state.history.stack.isEmpty)
    }

    @Test("an empty History asks for nothing after its first load")
    func emptyHistory() {
        var state = AppState.loaded(historyTotal: 0)
        #expect(state.send(.tabChosen(.history)) == [])
        #expect(state.send(.listMoved(.pageDown)) == [])
        #expect(state.history.list == ListPosition())
    }

    @Test("a storage failure clears the pending read so it can be retried, and says why")
    func storageFailed() {
        var state = AppState()
        let first = state.send(.started).historyRequests
        _ = state.send(.storageFailed("The database is locked."))
        #expect(state.history.pendingLoad == nil)
        #expect(state.status == StatusMessage("The database is locked.", kind: .error))
        #expect(state.send(.resized(state.size)).historyRequests == first)
    }
}
