import CaptureMode
import Domain
import TabShell
import Testing

/// The search sheet: live search as you type, results that open in History, Esc back to where
/// you were.
@Suite("Shell: search sheet")
struct SearchTests {
    static let total = 300

    /// A state where every tab has moved away from its defaults, on `tab`.
    static func busyState(on tab: Tab = .inbox) -> AppState {
        var state = AppState.loaded(requests: (1...30).map { request($0) }, historyTotal: total)
        _ = state.send([.listMoved(.down), .listMoved(.down)])
        _ = state.send([.tabChosen(.history), .listMoved(.pageDown), .rowActivated])
        _ = state.send([.tabChosen(.settings), .listMoved(.down)])
        _ = state.send(.tabChosen(tab))
        return state
    }

    static func rows(_ count: Int) -> [HistoryRow] {
        (0..<count).map { historyRow(at: $0 * 7, total: total) }
    }

    /// Sends typed text one character at a time, as keys arrive.
    static func type(_ text: String, into state: inout AppState) -> [AppEffect] {
        text.flatMap { state.send(.search(.edited(.typed(String($0))))) }
    }

    @Test("/ opens an empty search sheet over the current tab and asks nothing yet")
    func openSearch() {
        var state = Self.busyState()
        #expect(state.send(.searchRequested) == [])
        #expect(state.presentation == .sheet(.search(SearchState())))
        #expect(state.selectedTab == .inbox)
    }

    @Test("each keystroke that changes the query asks storage again")
    func typingSearches() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        #expect(
            Self.type("40", into: &state) == [
                .search(query: "4", limit: SearchState.resultLimit), .search(query: "40", limit: SearchState.resultLimit),
            ])
        #expect(state.send(.search(.edited(.typed(" ")))) == [], "a trailing space does not change what is searched")
        #expect(state.send(.search(.edited(.moved(.home)))) == [])
        #expect(state.send(.search(.edited(.deleteForward))).searches == ["0"])
        #expect(state.send(.search(.edited(.pasted("pal\nlet")))).searches == ["pal let0"])
        #expect(state.presentation.search?.isSearching == true)
    }

    @Test("results for the query as typed are shown from the top; answers for older queries are dropped")
    func staleResultsAreDropped() throws {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("ab", into: &state)
        _ = state.send(.search(.resultsLoaded(query: "a", rows: Self.rows(9))))
        #expect(state.presentation.search?.results == [])
        #expect(state.presentation.search?.isSearching == true)

        _ = state.send(.search(.resultsLoaded(query: "ab", rows: Self.rows(4))))
        let search = try #require(state.presentation.search)
        #expect(search.results == Self.rows(4))
        #expect(search.resultsQuery == "ab" && !search.isSearching)
        #expect(search.list == ListPosition())
    }

    @Test("emptying the query clears the results without asking storage")
    func emptyQuery() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("a", into: &state)
        _ = state.send(.search(.resultsLoaded(query: "a", rows: Self.rows(3))))
        #expect(state.send(.search(.edited(.backspace))) == [])
        #expect(state.presentation.search?.results == [])
        #expect(state.presentation.search?.resultsQuery == nil)
    }

    @Test("Up and Down move through the results, not the tab's list")
    func arrowsMoveResults() {
        var state = Self.busyState()
        let inbox = state.inbox
        _ = state.send(.searchRequested)
        _ = Self.type("x", into: &state)
        _ = state.send(.search(.resultsLoaded(query: "x", rows: Self.rows(30))))
        _ = state.send([.listMoved(.down), .listMoved(.down), .listMoved(.up), .listMoved(.pageDown)])
        let viewport = state.layout.searchResultRows
        #expect(state.presentation.search?.list.cursor == 1 + viewport - 1)
        _ = state.send(.listMoved(.end))
        #expect(state.presentation.search?.list.cursor == 29)
        #expect(state.inbox == inbox)
    }

    @Test("Enter on a result closes the sheet, switches to History and opens that record")
    func enterOpensTheRecordInHistory() throws {
        var state = Self.busyState(on: .settings)
        let (inbox, settingsScreen, historyList) = (state.inbox, state.settingsScreen, state.history.list)
        _ = state.send(.searchRequested)
        _ = Self.type("x", into: &state)
        _ = state.send([.search(.resultsLoaded(query: "x", rows: Self.rows(5))), .listMoved(.down)])
        let chosen = Self.rows(5)[1]

        let effects = state.send(.rowActivated)

        #expect(state.presentation == .none)
        #expect(state.selectedTab == .history)
        #expect(state.history.stack == [detailRoute(chosen)], "History's earlier detail is replaced")
        #expect(effects.contains(.loadRecordDetail(chosen.id)))
        #expect(state.history.list == historyList)
        #expect(state.inbox == inbox)
        #expect(state.settingsScreen == settingsScreen)
        #expect(state.lastSearch.query == "x")
        // Back leaves the detail for the list as it was.
        _ = state.send(.escapePressed)
        #expect(state.history.stack.isEmpty && state.history.list == historyList)
    }

    @Test("Enter with no results does nothing")
    func enterWithoutResults() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("zzz", into: &state)
        _ = state.send(.search(.resultsLoaded(query: "zzz", rows: [])))
        let before = state
        #expect(state.send(.rowActivated) == [])
        #expect(state == before)
    }

    @Test("a click highlights a result; a click on the highlighted one opens it")
    func clicksOnResults() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("x", into: &state)
        _ = state.send(.search(.resultsLoaded(query: "x", rows: Self.rows(5))))
        #expect(state.send(.rowClicked(3)) == [])
        #expect(state.presentation.search?.list.cursor == 3)
        #expect(state.send(.rowClicked(9)) == [])
        _ = state.send(.rowClicked(3))
        #expect(state.history.detail?.record == Self.rows(5)[3])
    }

    @Test("Esc returns exactly to where you were, on every tab", arguments: Tab.contentTabs)
    func escRestoresTheExactState(tab: Tab) {
        var state = Self.busyState(on: tab)
        let before = state
        _ = state.send(.searchRequested)
        _ = Self.type("pal", into: &state)
        _ = state.send([.search(.resultsLoaded(query: "pal", rows: Self.rows(20))), .listMoved(.down), .search(.edited(.backspace))])
        _ = state.send(.escapePressed)

        var expected = before
        expected.lastSearch.query = "pa"
        expected.lastSearch.results = Self.rows(20)  // shown again on reopening, until "pa" answers
        expected.lastSearch.resultsQuery = "pal"
        #expect(state == expected)
    }

    @Test("the query comes back the next time, and is searched again")
    func queryIsRemembered() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("pal", into: &state)
        _ = state.send(.escapePressed)
        #expect(state.send(.searchRequested) == [.search(query: "pal", limit: SearchState.resultLimit)])
        #expect(state.presentation.search?.query.text == "pal")
        #expect(state.presentation.search?.query.cursor == 3)
    }

    @Test("choosing a tab from the bar closes the sheet and goes there, remembering the query")
    func tabBarClosesTheSheet() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("q", into: &state)
        _ = state.send(.tabChosen(.settings))
        #expect(state.presentation == .none)
        #expect(state.selectedTab == .settings)
        #expect(state.lastSearch.query == "q")
    }

    @Test("/ does nothing over capture or an alert, and the sheet does not open twice")
    func notOverModals() {
        var state = Self.busyState()
        _ = state.send(.tabChosen(.create))
        let inCapture = state
        #expect(state.send(.searchRequested) == [])
        #expect(state == inCapture)

        state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("a", into: &state)
        let searching = state
        #expect(state.send(.searchRequested) == [])
        #expect(state == searching)
    }

    @Test("a failed search stops waiting and says why")
    func failedSearch() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("a", into: &state)
        _ = state.send(.storageFailed("The database is locked."))
        #expect(state.presentation.search?.isSearching == false)
        #expect(state.status?.kind == .error)
    }

    @Test("a resize keeps the highlighted result in view")
    func resizeClampsResults() {
        var state = Self.busyState()
        _ = state.send(.searchRequested)
        _ = Self.type("a", into: &state)
        _ = state.send([.search(.resultsLoaded(query: "a", rows: Self.rows(40))), .listMoved(.end)])
        _ = state.send(.resized(ScreenSize(rows: 12, columns: 40)))
        let list = state.presentation.search?.list
        #expect(list?.cursor == 39)
        #expect(list?.scrollOffset == 40 - state.layout.searchResultRows)
    }
}
