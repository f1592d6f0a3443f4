import CaptureMode
import Domain
import Foundation

/// What a watcher is sent of a presenting session after each frame: the navigation
/// (``SessionSnapshot``: tab and cursors), everything presented over the tabs layer by layer
/// (``PresentedLayer``: sheets, capture with its questions, alerts, the photo viewer), the
/// status line's toast and the settings that change a layout — and of the data only what the
/// presenter's screen shows: the rows in view of the list on screen, the record
/// open in History with its photos' facts. A watcher at 200x200 is sent the 3 requests an 80x12
/// presenter sees, never the 60 behind them. A plain Codable value, read back by the watcher
/// into an ``AppState`` that the ordinary renderer draws at the watcher's own size. It comes
/// from another person's process: `bounded()` caps every count and length before it is used,
/// and the renderer's Sanitizer makes its text printable.
public struct PresentedScreen: Codable, Equatable, Sendable {
    public static let currentVersion = 2
    /// Rows of any one list a watcher keeps; a presenter's screen shows far fewer.
    public static let maximumRows = 500
    /// Characters of any one text a watcher keeps.
    public static let maximumText = 4000
    /// Layers of presentation a watcher keeps (a sheet or capture, an alert, the viewer).
    public static let maximumLayers = 4

    public var version = Self.currentVersion
    /// The tab and each list's cursor and scroll; the presented layers are in `layers`.
    public var navigation: SessionSnapshot
    /// What is presented over the tabs, bottom first.
    public var layers: [PresentedLayer]
    /// The Inbox rows the presenter's screen shows (none when the Inbox is not on it), and
    /// where they sit in the presenter's list.
    public var inbox: [InboxRequest]
    public var inboxPart: ListPart
    public var inboxHasMore: Bool
    public var inboxPendingCount: Int
    public var groupsByRequester: Bool
    /// History's rows the presenter's screen shows, from `historyStart`.
    public var history: [HistoryRow]
    public var historyStart: Int
    public var historyTotal: Int
    public var historyHasSeveralPeople: Bool
    /// The record open in History as storage answered the presenter: its photos' facts and a
    /// batch's lines (nil until they came, as for the presenter).
    public var detail: Detail?
    public var status: String?
    public var statusKind: StatusKind
    public var settings: Settings
    public var isTabBarMinimized: Bool
    public var photosFromUploads: Bool

    /// How the status line draws `status` (a success has its mark, an error its own).
    public typealias StatusKind = StatusMessage.Kind

    public struct Detail: Codable, Equatable, Sendable {
        public var photos: [RecordPhoto]?
        public var lines: [BatchLine]?
        public var photoCursor: Int
    }
}

extension AppState {
    /// What a watcher is sent of this state: only what its screen shows.
    public var presentedScreen: PresentedScreen { presentedScreen(listRowsOnScreen: nil) }

    /// The same, with the rows of the tab's list the presenter's drawn screen still shows
    /// (`listRowsOnScreen`, absolute indices; nil: every row the layout gives the list): a
    /// status sentence wrapped over the list's last row leaves it off the presenter's screen,
    /// and so off the watchers'.
    public func presentedScreen(listRowsOnScreen: Range<Int>?) -> PresentedScreen {
        let layout = self.layout
        let layers = PresentedLayer.layers(of: presentation, layout: layout)
        // Capture and the viewer cover the tab whole: none of its rows is on screen then (a
        // sheet or an alert leaves rows in view around it on a wide screen).
        let tabsShow = !layers.contains {
            switch $0 {
            case .capture, .viewer: true
            case .help, .search, .alert: false
            }
        }
        var navigation = sessionSnapshot(savedAt: Date(timeIntervalSince1970: 0), stagingID: nil)
        navigation.sheet = nil
        navigation.capture = nil
        navigation.alert = nil
        navigation.lastSearchQuery = ""
        // Only the record on top of History's stack shows.
        navigation.historyStack = Array(navigation.historyStack.suffix(1))

        var inboxRows: [InboxRequest] = []
        var inboxPart = ListPart(offset: 0, total: inbox.requests.count, namesPeople: inbox.hasRequesters)
        if tabsShow, selectedTab == .inbox {
            let shown = PresentedScreen.shownRange(
                count: inbox.requests.count, cursor: inbox.list.cursor, scrollOffset: inbox.list.scrollOffset, rows: layout.inboxListRows
            ).clamped(to: listRowsOnScreen ?? 0..<Int.max)
            inboxRows = Array(inbox.requests[shown])
            inboxPart.offset = shown.lowerBound
        }
        var historyRows: [HistoryRow] = []
        var historyStart = 0
        var detail: PresentedScreen.Detail?
        if tabsShow, selectedTab == .history {
            if let top = history.detail {
                // A photo's facts, never where its file is.
                let photos = top.photos?.map {
                    var photo = $0
                    photo.storedName = ""
                    return photo
                }
                detail = PresentedScreen.Detail(photos: photos, lines: top.lines, photoCursor: top.photoCursor)
            } else {
                let shown = PresentedScreen.shownRange(
                    count: history.totalCount, cursor: history.list.cursor, scrollOffset: history.list.scrollOffset,
                    rows: layout.historyListRows
                ).clamped(to: listRowsOnScreen ?? 0..<Int.max)
                historyRows = shown.compactMap { history.row(at: $0) }
                historyStart = shown.first { history.row(at: $0) != nil } ?? shown.lowerBound
            }
        }
        return PresentedScreen(
            navigation: navigation, layers: layers,
            inbox: inboxRows, inboxPart: inboxPart, inboxHasMore: inbox.hasMore,
            inboxPendingCount: inbox.pendingCount, groupsByRequester: inbox.groupsByRequester,
            history: historyRows, historyStart: historyStart, historyTotal: history.totalCount,
            historyHasSeveralPeople: history.window.hasSeveralPeople, detail: detail,
            status: status?.text, statusKind: status?.kind ?? .info,
            settings: settings, isTabBarMinimized: isTabBarMinimized, photosFromUploads: photosFromUploads)
    }

    /// A watcher's state: `screen` drawn at the watcher's `size`, with nothing to load (a
    /// watcher has no store) and nothing it can change of the presenter's.
    public static func watching(_ screen: PresentedScreen, size: ScreenSize, environment: DisplayEnvironment) -> AppState {
        let screen = screen.bounded()
        var environment = environment
        environment.isWatching = true
        var state = AppState(settings: screen.settings, size: size, environment: environment)
        state.photosFromUploads = screen.photosFromUploads
        state.isTabBarMinimized = screen.isTabBarMinimized
        let navigation = screen.navigation
        let mode = HistoryBrowseMode(rawValue: navigation.historyBrowseMode) ?? .all
        state.history.totalCount = screen.historyTotal
        _ = state.restore(navigation, photos: [], message: nil)

        state.inbox.requests = screen.inbox
        state.inbox.part = screen.inboxPart
        state.inbox.hasMore = screen.inboxHasMore
        state.inbox.pendingCount = screen.inboxPendingCount
        state.inbox.groupsByRequester = screen.groupsByRequester
        state.inbox.hasLoaded = true
        state.inbox.list = ListPosition(
            cursor: navigation.inbox.cursor - screen.inboxPart.offset,
            scrollOffset: max(0, navigation.inbox.scrollOffset - screen.inboxPart.offset))

        // restore's reset forgets the window; the presenter's rows are what is shown.
        state.history.window = HistoryPage(
            start: screen.historyStart, rows: screen.history, totalCount: screen.historyTotal, mode: mode,
            hasSeveralPeople: screen.historyHasSeveralPeople)
        state.history.hasLoaded = true
        state.history.showsOnlyWindow = true
        state.history.following = nil
        if let detail = screen.detail, var top = state.history.detail {
            top.photos = detail.photos
            top.lines = detail.lines
            top.photoCursor = min(max(0, detail.photoCursor), max(0, (detail.photos?.count ?? 1) - 1))
            state.history.replaceTop(with: top)
        }
        state.presentation = PresentedLayer.presentation(of: screen.layers, config: state.captureConfig)
        state.clampLists()
        // A watcher taller than the presenter starts at the first row it holds, not above it.
        let list = state.history.list
        state.history.list.scrollOffset = max(list.scrollOffset, min(screen.historyStart, list.cursor))
        state.status = screen.status.map { StatusMessage($0, kind: screen.statusKind) }
        return state
    }
}

extension PresentedScreen {
    /// The rows of a list of `count` that a screen of `rows` list rows shows: from the scroll
    /// offset, moved the least that shows the cursor.
    static func shownRange(count: Int, cursor: Int, scrollOffset: Int, rows: Int) -> Range<Int> {
        let count = max(0, count)
        let rows = max(1, rows)
        var first = min(max(0, scrollOffset), max(0, count - 1))
        if count > 0 {
            let cursor = min(max(0, cursor), count - 1)
            if cursor < first { first = cursor }
            if cursor >= first + rows { first = cursor - rows + 1 }
        }
        return first..<min(count, first + rows)
    }

    static func cut(_ row: HistoryRow, _ cut: (String) -> String) -> HistoryRow {
        var row = row
        row.note = row.note.map(cut)
        row.requestTitle = row.requestTitle.map(cut)
        row.capturedBy = row.capturedBy.map(cut)
        row.requester = row.requester.map(cut)
        row.firstPhotoName = row.firstPhotoName.map(cut)
        return row
    }

    /// A part whose numbers agree with the `held` rows it places.
    static func sane(_ part: ListPart, held: Int) -> ListPart {
        let offset = min(max(0, part.offset), 1_000_000_000)
        return ListPart(offset: offset, total: max(offset + held, min(part.total, 1_000_000_000)), namesPeople: part.namesPeople)
    }

    /// Every list and text cut to its bound, every count made sane.
    public func bounded() -> PresentedScreen {
        func cut(_ text: String) -> String { text.count > Self.maximumText ? String(text.prefix(Self.maximumText)) : text }
        var copy = self
        copy.inbox = inbox.prefix(Self.maximumRows).map {
            var request = $0
            request.title = cut(request.title)
            request.body = cut(request.body)
            request.requester = request.requester.map(cut)
            request.createdBy = request.createdBy.map(cut)
            return request
        }
        copy.inboxPart = Self.sane(inboxPart, held: copy.inbox.count)
        copy.history = history.prefix(Self.maximumRows).map { Self.cut($0, cut) }
        copy.historyStart = min(max(0, historyStart), 1_000_000_000)
        copy.historyTotal = max(copy.historyStart + copy.history.count, min(historyTotal, 1_000_000_000))
        copy.inboxPendingCount = min(max(0, inboxPendingCount), 1_000_000_000)
        copy.detail = detail.map {
            var detail = $0
            detail.photos = $0.photos.map {
                $0.prefix(32).map {
                    var photo = $0
                    photo.originalName = cut(photo.originalName)
                    photo.storedName = ""
                    return photo
                }
            }
            detail.lines = $0.lines.map { Array($0.prefix(Self.maximumRows)) }
            return detail
        }
        copy.layers = layers.prefix(Self.maximumLayers).map { $0.bounded(cut) }
        copy.status = status.map(cut)
        var navigation = navigation
        navigation.historyStack = Array(navigation.historyStack.suffix(1)).map {
            var route = $0
            route.record = Self.cut(route.record, cut)
            route.scrollOffset = min(max(0, route.scrollOffset), 100_000)
            return route
        }
        navigation.lastSearchQuery = ""
        navigation.sheet = nil
        navigation.capture = nil
        navigation.alert = nil
        copy.navigation = navigation
        return copy
    }
}
