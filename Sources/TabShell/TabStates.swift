import Foundation

/// The Inbox tab's own state.
public struct InboxState: Equatable, Sendable {
    public var list = ListPosition()
    public var requests: [InboxRequest] = []
    public var pendingCount = 0
    /// The request Create captures for (Space toggles it); required when capture gating is on.
    public var chosenRequestID: Int64?
    public var hasLoaded = false

    public init() {}

    public var highlightedRequest: InboxRequest? {
        requests.indices.contains(list.cursor) ? requests[list.cursor] : nil
    }

    public var chosenRequest: InboxRequest? {
        requests.first { $0.id == chosenRequestID && $0.status == .pending }
    }
}

/// A screen pushed on History's navigation stack.
public enum HistoryRoute: Equatable, Sendable {
    case detail(HistoryRow)
}

/// How History groups its records.
public enum HistoryBrowseMode: String, Equatable, Sendable, CaseIterable {
    case all
    public var title: String { "All" }
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
}

/// The rows of the Settings tab, top to bottom.
public enum SettingsRow: Int, CaseIterable, Sendable {
    case snapBackTarget, captureGating, tabBarPosition, colorEnabled, autoAdvance, freeTextCodes

    public var title: String {
        switch self {
        case .snapBackTarget: "After capture, return to"
        case .captureGating: "Require an Inbox request to capture"
        case .tabBarPosition: "Tab bar position"
        case .colorEnabled: "Colour"
        case .autoAdvance: "Auto-advance after a scan"
        case .freeTextCodes: "Accept free-text codes"
        }
    }
}

/// The Settings tab's own state.
public struct SettingsScreenState: Equatable, Sendable {
    public var list = ListPosition()
    public init() {}
}
