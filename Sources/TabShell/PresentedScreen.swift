import CaptureMode
import Foundation

/// What a watcher is sent of a presenting session after each frame: the navigation
/// (``SessionSnapshot``: tab, cursors, sheet, capture and its typed text, alert), the rows on
/// screen, the status line's toast and the settings that change a layout. A plain Codable value,
/// read back by the watcher (issue #27) into an ``AppState`` that the ordinary renderer draws at
/// the watcher's own size. It comes from another person's process: `bounded()` caps every count
/// and length before it is used, and the renderer's Sanitizer makes its text printable.
public struct PresentedScreen: Codable, Equatable, Sendable {
    public static let currentVersion = 1
    /// Rows of any one list a watcher keeps; a presenter's screen shows far fewer.
    public static let maximumRows = 500
    /// Characters of any one text a watcher keeps.
    public static let maximumText = 4000

    public var version = Self.currentVersion
    public var navigation: SessionSnapshot
    public var inbox: [InboxRequest]
    public var inboxPendingCount: Int
    public var groupsByRequester: Bool
    public var history: [HistoryRow]
    public var historyStart: Int
    public var historyTotal: Int
    public var historyHasSeveralPeople: Bool
    public var searchResults: [HistoryRow]
    public var searchQuerySelected: Bool
    public var searchResultsFocused: Bool
    /// The query the results answer (nil or another: "Searching…").
    public var searchResultsQuery: String?
    public var status: String?
    public var statusIsError: Bool
    public var settings: Settings
    public var isTabBarMinimized: Bool
}

extension AppState {
    /// What a watcher is sent of this state.
    public var presentedScreen: PresentedScreen {
        var search: SearchState?
        if case let .search(state)? = presentation.sheet { search = state }
        return PresentedScreen(
            navigation: sessionSnapshot(savedAt: Date(timeIntervalSince1970: 0), stagingID: nil),
            inbox: Array(inbox.requests.prefix(PresentedScreen.maximumRows)),
            inboxPendingCount: inbox.pendingCount, groupsByRequester: inbox.groupsByRequester,
            history: Array(history.window.rows.prefix(PresentedScreen.maximumRows)), historyStart: history.window.start,
            historyTotal: history.totalCount, historyHasSeveralPeople: history.window.hasSeveralPeople,
            searchResults: Array((search?.results ?? []).prefix(PresentedScreen.maximumRows)),
            searchQuerySelected: search?.isQuerySelected ?? false, searchResultsFocused: search?.resultsHaveFocus ?? false,
            searchResultsQuery: search?.resultsQuery,
            status: status?.text, statusIsError: status?.kind == .error,
            settings: settings, isTabBarMinimized: isTabBarMinimized)
    }

    /// A watcher's state: `screen` drawn at the watcher's `size`, with nothing to load (a
    /// watcher has no store) and nothing it can change of the presenter's.
    public static func watching(_ screen: PresentedScreen, size: ScreenSize, environment: DisplayEnvironment) -> AppState {
        let screen = screen.bounded()
        var state = AppState(settings: screen.settings, size: size, environment: environment)
        state.inbox.requests = screen.inbox
        state.inbox.pendingCount = screen.inboxPendingCount
        state.inbox.groupsByRequester = screen.groupsByRequester
        state.inbox.hasLoaded = true
        let mode = HistoryBrowseMode(rawValue: screen.navigation.historyBrowseMode) ?? .all
        state.history.totalCount = screen.historyTotal
        state.history.window = HistoryPage(
            start: screen.historyStart, rows: screen.history, totalCount: screen.historyTotal, mode: mode,
            hasSeveralPeople: screen.historyHasSeveralPeople)
        state.history.hasLoaded = true
        let photos = screen.navigation.capture?.photos ?? []
        _ = state.restore(screen.navigation, photos: photos, message: nil)
        // restore's reset forgets the window; the presenter's rows are what is shown.
        state.history.totalCount = screen.historyTotal
        state.history.window = HistoryPage(
            start: screen.historyStart, rows: screen.history, totalCount: screen.historyTotal, mode: mode,
            hasSeveralPeople: screen.historyHasSeveralPeople)
        state.history.hasLoaded = true
        state.history.following = nil
        state.history.pendingLoad = nil
        if case var .search(search)? = state.presentation.sheet {
            search.results = screen.searchResults
            search.isQuerySelected = screen.searchQuerySelected
            search.resultsHaveFocus = screen.searchResultsFocused
            search.resultsQuery = screen.searchResultsQuery
            switch state.presentation {
            case let .alert(alert, _): state.presentation = .alert(alert, over: .sheet(.search(search)))
            default: state.presentation = .sheet(.search(search))
            }
        }
        state.isTabBarMinimized = screen.isTabBarMinimized
        state.status = screen.status.map { StatusMessage($0, kind: screen.statusIsError ? .error : .info) }
        return state
    }
}

extension PresentedScreen {
    /// Every list and text cut to its bound, every count made sane.
    public func bounded() -> PresentedScreen {
        func cut(_ text: String) -> String { text.count > Self.maximumText ? String(text.prefix(Self.maximumText)) : text }
        func cut(_ row: HistoryRow) -> HistoryRow {
            var row = row
            row.note = row.note.map(cut)
            row.requestTitle = row.requestTitle.map(cut)
            row.capturedBy = row.capturedBy.map(cut)
            row.requester = row.requester.map(cut)
            row.firstPhotoName = row.firstPhotoName.map(cut)
            return row
        }
        var copy = self
        copy.inbox = inbox.prefix(Self.maximumRows).map {
            var request = $0
            request.title = cut(request.title)
            request.body = cut(request.body)
            request.requester = request.requester.map(cut)
            request.createdBy = request.createdBy.map(cut)
            return request
        }
        copy.history = history.prefix(Self.maximumRows).map(cut)
        copy.searchResults = searchResults.prefix(Self.maximumRows).map(cut)
        copy.historyStart = max(0, historyStart)
        copy.historyTotal = max(copy.historyStart + copy.history.count, min(historyTotal, 1_000_000_000))
        copy.inboxPendingCount = min(max(0, inboxPendingCount), 1_000_000_000)
        copy.status = status.map(cut)
        copy.searchResultsQuery = searchResultsQuery.map(cut)
        var navigation = navigation
        navigation.historyStack = Array(navigation.historyStack.suffix(8)).map {
            var route = $0
            route.record = cut(route.record)
            route.scrollOffset = min(max(0, route.scrollOffset), 100_000)
            return route
        }
        navigation.lastSearchQuery = cut(navigation.lastSearchQuery)
        if case let .search(query, queryCursor, resultCursor, resultScroll)? = navigation.sheet {
            navigation.sheet = .search(
                query: cut(query), queryCursor: max(0, queryCursor), resultCursor: max(0, resultCursor), resultScroll: max(0, resultScroll))
        }
        if var capture = navigation.capture {
            capture.barcodeInput.text = cut(capture.barcodeInput.text)
            capture.note.text = cut(capture.note.text)
            capture.photoPath.text = cut(capture.photoPath.text)
            capture.photos = Array(capture.photos.prefix(32))
            navigation.capture = capture
        }
        copy.navigation = navigation
        return copy
    }
}
