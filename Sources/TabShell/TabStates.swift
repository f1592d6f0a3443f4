import Foundation

/// The Inbox tab's own state.
public struct InboxState: Equatable, Sendable {
    public var list = ListPosition()
    public var requests: [InboxRequest] = []
    public var pendingCount = 0
    /// The request Create captures for (Space toggles it); required when capture gating is on.
    public var chosenRequestID: Int64?
    public var hasLoaded = false
    /// The request a Done just answered, drawn highlighted for a moment once the Inbox shows.
    public var highlight: RequestHighlight?
    /// The last token handed to a highlight timer, so an old timer cannot end a newer highlight.
    public var highlightTokens = 0

    public init() {}

    public var highlightedRequest: InboxRequest? {
        requests.indices.contains(list.cursor) ? requests[list.cursor] : nil
    }

    public var chosenRequest: InboxRequest? {
        requests.first { $0.id == chosenRequestID && $0.status == .pending }
    }

    /// The request drawn highlighted right now, if any.
    public var highlightedRequestID: Int64? {
        highlight.flatMap { $0.isShowing ? $0.requestID : nil }
    }
}

/// "This request was just answered": set by a Done, shown once the Inbox is on screen (so it is
/// seen even when capture snapped back to another tab) and ended by a timer.
public struct RequestHighlight: Equatable, Sendable {
    public var requestID: Int64
    public var token: Int
    /// False until the Inbox is on screen; the timer starts then.
    public var isShowing: Bool

    public init(requestID: Int64, token: Int, isShowing: Bool) {
        self.requestID = requestID
        self.token = token
        self.isShowing = isShowing
    }

    /// How long the highlight shows.
    public static let milliseconds = 1500
}

/// A record's detail on History's stack: the row it was opened from, its photos once storage
/// has answered, and how far it is scrolled.
public struct HistoryDetailState: Equatable, Sendable {
    public var record: HistoryRow
    /// Nil until `.recordDetailLoaded` arrives.
    public var photos: [RecordPhoto]?
    /// The first line shown.
    public var scrollOffset: Int

    public init(record: HistoryRow, photos: [RecordPhoto]? = nil, scrollOffset: Int = 0) {
        self.record = record
        self.photos = photos
        self.scrollOffset = scrollOffset
    }
}

/// A screen pushed on History's navigation stack.
public enum HistoryRoute: Equatable, Sendable {
    case detail(HistoryDetailState)

    /// The record the screen shows.
    public var recordID: Int64 {
        switch self {
        case let .detail(detail): detail.record.id
        }
    }
}

/// How History orders its records: newest first, or grouped (by the request they answer, or by
/// kind) and newest first within each group.
public enum HistoryBrowseMode: String, Equatable, Sendable, CaseIterable {
    case all, byRequest, byKind

    public var title: String {
        switch self {
        case .all: "All"
        case .byRequest: "By request"
        case .byKind: "By kind"
        }
    }

    /// The mode `b` switches to.
    public var next: HistoryBrowseMode {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

/// The History tab's own state. Only a window of rows is held; the rest stays in the database.
public struct HistoryState: Equatable, Sendable {
    public var list = ListPosition()
    public var totalCount = 0
    /// The loaded rows, at absolute positions `window.start ..< window.start + window.rows.count`.
    public var window = HistoryPage(start: 0, rows: [], totalCount: 0)
    /// The page asked for and not yet delivered, so the same read is not issued twice.
    public var pendingLoad: HistoryPageRequest?
    public var stack: [HistoryRoute] = []
    public var browseMode: HistoryBrowseMode = .all
    public var hasLoaded = false

    public init() {}

    public func row(at index: Int) -> HistoryRow? {
        let offset = index - window.start
        return window.rows.indices.contains(offset) ? window.rows[offset] : nil
    }

    /// The detail on top of the stack, if one is showing.
    public var detail: HistoryDetailState? {
        if case let .detail(detail)? = stack.last { return detail }
        return nil
    }
}

/// The rows of the Settings tab, top to bottom: the settings, then Clear all.
public enum SettingsRow: Int, CaseIterable, Sendable {
    case snapBackTarget, captureGating, tabBarPosition, colorEnabled, autoAdvance, freeTextCodes
    case maximumPhotos, maximumPhotoSize
    /// Not a setting: asks to delete every History record (after a confirmation).
    case clearHistory

    public var title: String {
        switch self {
        case .snapBackTarget: "After capture, return to"
        case .captureGating: "Require an Inbox request to capture"
        case .tabBarPosition: "Tab bar position"
        case .colorEnabled: "Colour"
        case .autoAdvance: "Auto-advance after a scan"
        case .freeTextCodes: "Accept free-text codes"
        case .maximumPhotos: "Photos per capture, at most"
        case .maximumPhotoSize: "Largest photo file"
        case .clearHistory: "Clear History"
        }
    }

    /// True for rows that change a stored setting.
    public var isSetting: Bool { self != .clearHistory }
}

/// The Settings tab's own state.
public struct SettingsScreenState: Equatable, Sendable {
    public var list = ListPosition()
    public init() {}
}
