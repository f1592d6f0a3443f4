import CaptureMode
import Domain
import Foundation

@testable import TabShell

// Shared test data and helpers for the TabShell reducer tests.

let epoch = Date(timeIntervalSince1970: 1_700_000_000)
let validEAN13 = Barcode(value: "4006381333931", symbology: .ean13)

func request(
    _ id: Int64, kind: CaptureKind = .barcode, status: RequestStatus = .pending, title: String? = nil
) -> InboxRequest {
    InboxRequest(
        id: id, title: title ?? "Request \(id)", body: "Body \(id)", kind: kind, status: status,
        createdAt: epoch.addingTimeInterval(Double(-id) * 60)
    )
}

func snapshot(_ requests: [InboxRequest]) -> InboxSnapshot {
    InboxSnapshot(requests: requests, pendingCount: requests.count { $0.status == .pending })
}

func historyRow(at index: Int, total: Int) -> HistoryRow {
    HistoryRow(
        id: Int64(total - index), kind: .barcode, barcode: validEAN13, note: nil,
        requestID: nil, requestTitle: nil, createdAt: epoch.addingTimeInterval(Double(-index))
    )
}

/// History's stack entry for a record's detail, as pushed before its photos arrive.
func detailRoute(_ row: HistoryRow) -> HistoryDetailState {
    HistoryDetailState(record: row)
}

/// The page storage would answer to `request` when it holds `total` records.
func page(for request: HistoryPageRequest, total: Int) -> HistoryPage {
    let end = min(total, request.start + request.count)
    let rows = request.start < end ? (request.start..<end).map { historyRow(at: $0, total: total) } : []
    return HistoryPage(start: request.start, rows: rows, totalCount: total, mode: request.mode)
}

extension Settings {
    /// The defaults with a tab bar that never minimizes, so tests about lists count rows
    /// against a fixed layout (TabBarMinimizeTests turn minimizing on).
    static var fixed: Settings {
        var settings = Settings.default
        settings.tabBarMinimizesOnScroll = false
        return settings
    }
}

extension AppState {
    /// Sends each action in turn and returns all effects.
    @discardableResult
    mutating func send(_ actions: [AppAction]) -> [AppEffect] {
        actions.flatMap { send($0) }
    }

    /// A state whose Inbox and History have been loaded, as after start-up.
    static func loaded(
        requests: [InboxRequest] = [], historyTotal: Int = 0, settings: Settings = .fixed,
        size: ScreenSize = ScreenSize(rows: 24, columns: 80)
    ) -> AppState {
        var state = AppState(settings: settings, size: size)
        let effects = state.send(.started)
        _ = state.send(.inbox(.loaded(snapshot(requests))))
        for case let .loadHistory(pageRequest) in effects {
            _ = state.send(.history(.pageLoaded(page(for: pageRequest, total: historyTotal))))
        }
        return state
    }
}

extension Array where Element == AppEffect {
    var historyRequests: [HistoryPageRequest] {
        compactMap { if case let .loadHistory(request) = $0 { request } else { nil } }
    }

    var commits: [CaptureSubmission] {
        compactMap { if case let .commitCapture(submission) = $0 { submission } else { nil } }
    }

    var searches: [String] {
        compactMap { if case let .search(query, _) = $0 { query } else { nil } }
    }
}

extension AppEffect {
    /// The draft a `.saveDraft` hands to storage.
    var savedDraft: CaptureDraft? {
        if case let .saveDraft(draft) = self { return draft }
        return nil
    }
}

extension Tab {
    /// Every tab that can be selected, in tab-bar order.
    static var contentTabs: [Tab] { ContentTab.allCases.map(\.tab) }
}

extension HistoryDetailLayout {
    /// The number of lines of the detail (as the reducer counts them: no age beside the time).
    func lineCount(of detail: HistoryDetailState) -> Int {
        lines(of: detail, glyphs: .unicode, now: nil).count
    }
}
