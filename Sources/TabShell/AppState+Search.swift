import CaptureMode
import Foundation

/// The search sheet's rules: live search as the query changes, and opening a result in History.
extension AppState {
    /// Closes whatever sheet shows, remembering a search's query for the next `/`.
    mutating func closeSheet() {
        if let search = presentation.search { lastSearchQuery = search.query.text }
        presentation = .none
    }

    /// Asks storage for the query's matches when it differs from `previousQuery`; an empty query
    /// has no results and asks nothing.
    mutating func searchIfNeeded(previousQuery: String) -> [AppEffect] {
        guard var search = presentation.search else { return [] }
        let query = search.trimmedQuery
        guard query != previousQuery else { return [] }
        guard !query.isEmpty else {
            search.results = []
            search.resultsQuery = nil
            search.list = ListPosition()
            presentation = .sheet(.search(search))
            return []
        }
        return [.search(query: query, limit: SearchState.resultLimit)]
    }

    /// A child switching tabs (seed 002): the sheet closes, History shows and opens the record.
    /// History's list stays where it was, under the detail.
    mutating func openSearchResult(_ row: HistoryRow) -> [AppEffect] {
        closeSheet()
        status = nil
        selectedTab = .history
        history.stack = []
        return openDetail(of: row) + historyLoadIfNeeded()
    }
}
