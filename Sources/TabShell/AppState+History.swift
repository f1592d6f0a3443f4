import CaptureMode
import Foundation

/// History's rules: paging in the browse mode's order, the record detail, and deleting.
extension AppState {
    // MARK: - Paging

    /// Asks for the History rows around the visible range when the loaded window does not cover
    /// it (or, with `force`, always: after a deletion the rows on screen have moved).
    mutating func historyLoadIfNeeded(force: Bool = false) -> [AppEffect] {
        let viewport = layout.historyListRows
        let first = history.list.scrollOffset
        let window = history.window
        if history.hasLoaded, !force {
            let last = min(history.totalCount, first + viewport)
            let covered = window.mode == history.browseMode
                && first >= window.start && last <= window.start + window.rows.count
            if last <= first || covered { return [] }
        }
        var request = HistoryPageRequest(start: max(0, first - viewport), count: viewport * 3, mode: history.browseMode)
        let pending = history.pendingLoad.map { HistoryPageRequest(start: $0.start, count: $0.count, mode: $0.mode) }
        guard force || pending != request else { return [] }
        request.anchor = historyAnchor(near: request.start)
        history.pendingLoad = request
        return [.loadHistory(request)]
    }

    /// The loaded row nearest to `position`, when the window holds rows of the mode showing.
    private func historyAnchor(near position: Int) -> HistoryAnchor? {
        let window = history.window
        guard window.mode == history.browseMode, !window.rows.isEmpty else { return nil }
        let offset = min(max(position - window.start, 0), window.rows.count - 1)
        return HistoryAnchor(position: window.start + offset, recordID: window.rows[offset].id)
    }

    mutating func historyPageArrived(_ page: HistoryPage) -> [AppEffect] {
        guard page.mode == history.browseMode else { return [] }
        if let pending = history.pendingLoad, pending.start != page.start {
            return []
        }
        history.pendingLoad = nil
        history.hasLoaded = true
        history.window = page
        history.totalCount = page.totalCount
        history.list.clamp(count: history.totalCount, viewport: layout.historyListRows)
        return historyLoadIfNeeded()
    }

    /// Shows History in another order, from the top: positions in the old order mean nothing in
    /// the new one. The count stays (the records are the same) until the first page confirms it.
    mutating func switchBrowseMode(to mode: HistoryBrowseMode) -> [AppEffect] {
        status = nil
        history.browseMode = mode
        history.list = ListPosition()
        history.window = HistoryPage(start: 0, rows: [], totalCount: history.totalCount, mode: mode)
        history.pendingLoad = nil
        return historyLoadIfNeeded(force: true)
    }

    /// Another process committed: the Inbox, the History rows on screen and an open record are
    /// read again where they are (positions kept; the loaded results clamp them). An open search
    /// keeps its results until the next keystroke rather than jumping under the user.
    mutating func changedElsewhere() -> [AppEffect] {
        var effects: [AppEffect] = [.loadInbox]
        if history.hasLoaded { effects += historyLoadIfNeeded(force: true) }
        if let detail = history.detail { effects.append(.loadRecordDetail(detail.record.id)) }
        return effects
    }

    // MARK: - Detail

    /// Pushes the record's detail and asks for its photos.
    mutating func openDetail(of row: HistoryRow) -> [AppEffect] {
        history.stack.append(.detail(HistoryDetailState(record: row)))
        return [.loadRecordDetail(row.id)]
    }

    mutating func scrollDetail(_ move: ListMove) {
        guard case var .detail(detail)? = history.stack.last else { return }
        let page = max(1, layout.contentRows - 1)
        switch move {
        case .up: detail.scrollOffset -= 1
        case .down: detail.scrollOffset += 1
        case .pageUp: detail.scrollOffset -= page
        case .pageDown: detail.scrollOffset += page
        case .home: detail.scrollOffset = 0
        case .end: detail.scrollOffset = Int.max / 2
        }
        history.stack[history.stack.count - 1] = .detail(clamped(detail))
    }

    mutating func clampDetailScroll() {
        history.stack = history.stack.map { route in
            switch route {
            case let .detail(detail): .detail(clamped(detail))
            }
        }
    }

    private func clamped(_ detail: HistoryDetailState) -> HistoryDetailState {
        var detail = detail
        let maximum = HistoryDetailLayout(layout: layout).maximumScrollOffset(of: detail)
        detail.scrollOffset = min(max(0, detail.scrollOffset), maximum)
        return detail
    }

    mutating func recordDetailArrived(id: Int64, detail loaded: RecordDetail?) -> [AppEffect] {
        guard let loaded else {
            guard history.stack.contains(where: { $0.recordID == id }) else { return [] }
            history.stack.removeAll { $0.recordID == id }
            status = StatusMessage("Record #\(id) is no longer in History.", kind: .error)
            return historyLoadIfNeeded(force: true)
        }
        history.stack = history.stack.map { route in
            guard case var .detail(detail) = route, detail.record.id == id else { return route }
            detail.record = loaded.record
            detail.photos = loaded.photos
            return .detail(clamped(detail))
        }
        return []
    }

    // MARK: - Deleting

    /// The record is gone: its detail closes, the rows after it move up, and the rows on screen
    /// are read again (the database has the last word on what is there).
    mutating func recordWasDeleted(_ id: Int64) -> [AppEffect] {
        history.stack.removeAll { $0.recordID == id }
        if let offset = history.window.rows.firstIndex(where: { $0.id == id }) {
            history.window.rows.remove(at: offset)
            history.window.totalCount = max(0, history.window.totalCount - 1)
            history.totalCount = max(0, history.totalCount - 1)
        } else {
            history.window = HistoryPage(start: 0, rows: [], totalCount: history.totalCount, mode: history.browseMode)
        }
        history.list.clamp(count: history.totalCount, viewport: layout.historyListRows)
        status = StatusMessage("Deleted record #\(id).", kind: .success)
        return historyLoadIfNeeded(force: true)
    }

    mutating func allRecordsWereDeleted(_ count: Int) -> [AppEffect] {
        history.stack = []
        history.list = ListPosition()
        history.totalCount = 0
        history.window = HistoryPage(start: 0, rows: [], totalCount: 0, mode: history.browseMode)
        history.pendingLoad = nil
        history.hasLoaded = true
        let records = count == 1 ? "1 record" : "\(groupedDigits(count)) records"
        status = StatusMessage("Deleted \(records) and their photos.", kind: .success)
        return historyLoadIfNeeded(force: true)
    }
}
