import Domain
import Foundation

// MARK: - State

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
    /// `b`: the requests grouped by who asked (seed 003's "By Agent"), requesters by name and
    /// requests without one last; within a group, the Inbox's own order.
    public var groupsByRequester = false
    /// How many requests the Inbox reads: a page at start, a page more each time the cursor
    /// nears the end of those read, so start-up does not grow with the Inbox.
    public var wanted = InboxSnapshot.pageSize
    /// More requests follow the ones read.
    public var hasMore = false
    /// A page more was asked for and has not come yet.
    var loadingMore = false
    /// Set when `requests` are only some of the list (a watcher's Inbox holds the rows the
    /// presenter's screen shows): where they sit in it. `list` counts within `requests`.
    public var part: ListPart?

    /// How many requests the list holds, those not held included.
    public var listCount: Int { part?.total ?? requests.count }
    /// The cursor's place in the whole list.
    public var cursorInList: Int { (part?.offset ?? 0) + list.cursor }

    /// `wanted` when every request is read: grouping by requester needs them all, or a group
    /// would miss its requests not yet read.
    public static let everything = Int(Int32.max)

    public init() {}

    /// Reading the Inbox as far as it is read now.
    public var loadEffect: AppEffect { .loadInbox(limit: wanted) }

    public var highlightedRequest: InboxRequest? {
        requests.indices.contains(list.cursor) ? requests[list.cursor] : nil
    }

    public var chosenRequest: InboxRequest? {
        requests.first { $0.id == chosenRequestID && $0.status == .pending }
    }

    /// Whether any request on the list names who asked (the Inbox then shows a From column).
    public var hasRequesters: Bool { part?.namesPeople ?? requests.contains { $0.requester != nil } }

    /// `requests` (in storage's order: pending first, newest first) as the Inbox shows them:
    /// grouped by requester when `groupsByRequester` — requesters by name, requests without one
    /// last, storage's order within a group — else as they are.
    public func arranged(_ requests: [InboxRequest]) -> [InboxRequest] {
        guard groupsByRequester else { return requests }
        return requests.enumerated().sorted { a, b in
            switch (a.element.requester, b.element.requester) {
            case let (x?, y?) where x != y:
                let order = x.localizedStandardCompare(y)
                return order == .orderedSame ? x < y : order == .orderedAscending
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// The loaded requests in storage's order, which ungrouping goes back to.
    var loadedRequests: [InboxRequest] = []

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

    /// How long the highlight shows.
    public static let milliseconds = 1500
}

// MARK: - Actions

/// What happens to the Inbox.
public enum InboxAction: Equatable, Sendable {
    case input(FocusInput)
    /// Space on a request: choose it as the one Create captures for (toggle).
    case choiceToggled
    /// `b`: group by requester, or not; the cursor stays on its request.
    case groupingToggled
    case loaded(InboxSnapshot)
    /// A Done answered this request: highlight it once the Inbox shows.
    case answered(requestID: Int64)
    /// The Inbox came on screen: start the timer of a waiting highlight.
    case shown
    case highlightEnded(token: Int)
    /// `o` on a done request: make it pending again.
    case reopenRequested
    /// `d` or Del on a request: delete it (asks first; its answers stay in History).
    case removeRequested
    /// Storage reopened or removed a request (or found none): say so in `message`, read the
    /// Inbox again.
    case requestChanged(message: String, succeeded: Bool)
    /// Another part of the app changed requests (a deleted record reopened the one it
    /// answered): read the Inbox again.
    case requestsChanged

    /// Sent by a key or a click (not storage's answer or a timer's).
    public var isUserInput: Bool {
        switch self {
        case .input, .choiceToggled, .groupingToggled, .reopenRequested, .removeRequested: true
        case .loaded, .answered, .shown, .highlightEnded, .requestChanged, .requestsChanged: false
        }
    }
}

// MARK: - Reducer

extension InboxState {
    /// A page more when the cursor is within a screen (or a quarter page) of the last request
    /// read and more follow.
    mutating func moreIfNeeded(viewport: Int) -> Outcome {
        guard hasLoaded, hasMore, !loadingMore, list.cursor >= requests.count - max(viewport, InboxSnapshot.pageSize / 4) else { return .none }
        wanted = requests.count + InboxSnapshot.pageSize
        loadingMore = true
        return .effects([loadEffect])
    }

    /// The Inbox reducer; `viewport` is the number of list rows on screen.
    public mutating func send(_ action: InboxAction, viewport: Int) -> Outcome {
        switch action {
        case let .input(.moved(move)):
            list.move(move, count: requests.count, viewport: viewport)
            return moreIfNeeded(viewport: viewport)

        case .input(.activated):
            guard let request = highlightedRequest else { return .none }
            guard request.status == .pending else {
                return .request(.status(StatusMessage("That request is done; pick a pending one.")))
            }
            return .request(.startCapture(request))

        case let .input(.clicked(row)):
            guard requests.indices.contains(row) else { return .none }
            if list.cursor == row { return send(.input(.activated), viewport: viewport) }
            list.cursor = row
            list.clamp(count: requests.count, viewport: viewport)
            return moreIfNeeded(viewport: viewport)

        case .input(.escape):
            return .none

        case .choiceToggled:
            guard let request = highlightedRequest else { return .none }
            guard request.status == .pending else {
                return .request(.status(StatusMessage("Only a pending request can be chosen.")))
            }
            chosenRequestID = chosenRequestID == request.id ? nil : request.id
            return .request(
                .status(
                    chosenRequestID == nil
                        ? StatusMessage("No request chosen.")
                        : StatusMessage("Create now captures for \u{201C}\(request.title)\u{201D}.")
                ))

        case .groupingToggled:
            groupsByRequester.toggle()
            let highlighted = highlightedRequest?.id
            requests = arranged(loadedRequests)
            if let highlighted, let index = requests.firstIndex(where: { $0.id == highlighted }) {
                list.cursor = index
            }
            list.clamp(count: requests.count, viewport: viewport)
            let status = Outcome.request(.status(StatusMessage(groupsByRequester ? "Grouped by requester." : "Not grouped.")))
            // A group holds every request of its requester: the rest are read first (the
            // cursor stays on its request when they come). Ungrouped, reloads read pages again,
            // as far as the cursor.
            if !groupsByRequester, wanted == Self.everything {
                wanted = (list.cursor / InboxSnapshot.pageSize + 1) * InboxSnapshot.pageSize
            }
            guard groupsByRequester, hasMore else { return status }
            wanted = Self.everything
            loadingMore = true
            return status.then(.effects([loadEffect]))

        case let .loaded(snapshot):
            // The cursor stays on its request (or the nearest one left): another session's new
            // request must not put Enter on a different one.
            let preference = ListPosition.preference(around: list.cursor, in: requests.map(\.id))
            loadedRequests = snapshot.requests
            requests = arranged(snapshot.requests)
            pendingCount = snapshot.pendingCount
            hasMore = snapshot.hasMore
            loadingMore = false
            hasLoaded = true
            if let chosen = chosenRequestID, chosenRequest?.id != chosen {
                chosenRequestID = nil
            }
            list.follow(preference, in: requests.map(\.id), count: requests.count, viewport: viewport)
            return .none

        case let .answered(requestID):
            if chosenRequestID == requestID { chosenRequestID = nil }
            highlightTokens += 1
            highlight = RequestHighlight(requestID: requestID, token: highlightTokens, isShowing: false)
            return .none

        case .shown:
            guard var waiting = highlight, !waiting.isShowing else { return .none }
            waiting.isShowing = true
            highlight = waiting
            return .effects([.schedule(afterMilliseconds: RequestHighlight.milliseconds, action: .inbox(.highlightEnded(token: waiting.token)))])

        case let .highlightEnded(token):
            if highlight?.token == token { highlight = nil }
            return .none

        case .reopenRequested:
            guard let request = highlightedRequest else { return .none }
            guard request.status == .done else {
                return .request(.status(StatusMessage("That request is pending already.")))
            }
            return .effects([.reopenRequest(request.id)])

        case .removeRequested:
            guard let request = highlightedRequest else { return .none }
            return .request(.present(.confirmRemoval(of: request)))

        case let .requestChanged(message, succeeded):
            return Outcome(effects: [loadEffect], requests: [.status(StatusMessage(message, kind: succeeded ? .success : .error))])

        case .requestsChanged:
            return .effects([loadEffect])
        }
    }
}
