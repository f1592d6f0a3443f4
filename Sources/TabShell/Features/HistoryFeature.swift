import Domain
import Foundation

// MARK: - State

/// The History tab's own state. Only a window of rows is held; the rest stays in the database.
public struct HistoryState: Equatable, Sendable {
    public var list = ListPosition()
    public var totalCount = 0
    /// The loaded rows, at absolute positions `window.start ..< window.start + window.rows.count`.
    public var window = HistoryPage(start: 0, rows: [], totalCount: 0)
    /// The page asked for and not yet delivered, so the same read is not issued twice.
    public var pendingLoad: HistoryPageRequest?
    /// The records' details pushed on the list (a record opened), the one showing last.
    public var stack: [HistoryDetailState] = []
    public var browseMode: HistoryBrowseMode = .all
    public var hasLoaded = false
    /// Set when the rows are read again under the cursor (a change elsewhere, a deletion): the
    /// records to put the cursor back on, best first (see `ListPosition.preference`).
    public var following: [Int64]?
    /// Only `window`'s rows are drawn, with no placeholder past it: a watcher's History holds
    /// the rows the presenter's screen shows, and nothing more will come.
    public var showsOnlyWindow = false

    public init() {}

    public func row(at index: Int) -> HistoryRow? {
        let offset = index - window.start
        return window.rows.indices.contains(offset) ? window.rows[offset] : nil
    }

    /// The detail on top of the stack, if one is showing.
    public var detail: HistoryDetailState? { stack.last }
}

// MARK: - Actions

/// What happens to History: its list, its browse modes and the record detail on its stack.
public enum HistoryAction: Equatable, Sendable {
    case input(FocusInput)
    /// Bksp in a record's detail: back to the list.
    case backRequested
    /// `b` in the list: All -> By request -> By kind -> All.
    case browseModeCycled
    /// `d`/Del: delete the highlighted record, or the one whose detail shows (asks first).
    case deleteRequested
    /// `D`, or Settings' Clear History row: delete every record (asks first).
    case clearAllRequested
    /// History shows (or is about to): read the rows on screen if they are not loaded.
    case rowsNeeded
    /// Open a record's detail on top of the list as it is (a search result chosen).
    case recordOpened(HistoryRow)
    case pageLoaded(HistoryPage)
    /// The answer to `.loadRecordDetail`; nil when the record no longer exists.
    case detailLoaded(id: Int64, detail: RecordDetail?)
    case recordDeleted(Int64)
    case allRecordsDeleted(count: Int)
    /// A Done added a record at the top: show History from the top.
    case recordCommitted
    /// Another process committed: read again what is on screen, where it is.
    case changedElsewhere
    /// A read failed: stop waiting for it.
    case loadFailed
    /// `y` (the code or a note's text) or `Y` (the export's JSON line) on the highlighted
    /// record, or on the record whose detail shows: to the clipboard.
    case copyRequested(HistoryCopy)
    /// The answer to `.loadExportLine`: the record's JSON line, nil when it is gone.
    case exportLineLoaded(id: Int64, line: String?)

    /// Sent by a key or a click (not storage's answer or the shell's bookkeeping).
    public var isUserInput: Bool {
        switch self {
        case .input, .backRequested, .browseModeCycled, .deleteRequested, .clearAllRequested, .copyRequested: true
        case .rowsNeeded, .recordOpened, .pageLoaded, .detailLoaded, .recordDeleted, .allRecordsDeleted, .recordCommitted,
            .changedElsewhere, .loadFailed, .exportLineLoaded:
            false
        }
    }
}

// MARK: - Reducer

extension HistoryState {
    /// The History reducer; `layout` says how many rows the list and the detail have, `keys`
    /// the keys in force that its sentences name.
    public mutating func send(_ action: HistoryAction, layout: Layout, keys: HistoryCopyKeys = .standard) -> Outcome {
        switch action {
        case let .input(.moved(move)):
            if var detail {
                detail.move(move, layout: layout)
                replaceTop(with: detail)
                return .none
            }
            list.move(move, count: totalCount, viewport: layout.historyListRows)
            return .effects(loadIfNeeded(layout: layout))

        case .input(.activated):
            guard stack.isEmpty, let row = row(at: list.cursor) else { return .none }
            return open(row)

        case let .input(.clicked(index)):
            guard stack.isEmpty, (0..<totalCount).contains(index) else { return .none }
            if list.cursor == index { return send(.input(.activated), layout: layout) }
            list.cursor = index
            list.clamp(count: totalCount, viewport: layout.historyListRows)
            return .effects(loadIfNeeded(layout: layout))

        case .input(.escape), .backRequested:
            if !stack.isEmpty { stack.removeLast() }
            return .none

        case .browseModeCycled:
            guard stack.isEmpty else { return .none }
            browseMode = browseMode.next
            reset(totalCount: totalCount)
            return Outcome(effects: loadIfNeeded(layout: layout, force: true), requests: [.status(nil)])

        case .deleteRequested:
            if let detail {
                return .request(.status(nil), .present(.confirmDeletion(of: detail.record, photoCount: detail.photos?.count)))
            }
            guard stack.isEmpty, let row = row(at: list.cursor) else { return .request(.status(nil)) }
            return .request(.status(nil), .present(.confirmDeletion(of: row, photoCount: nil)))

        case .clearAllRequested:
            guard totalCount > 0 else { return .request(.status(StatusMessage("History is already empty."))) }
            return .request(.status(nil), .present(.confirmClearAll(count: totalCount)))

        case .rowsNeeded:
            return .effects(loadIfNeeded(layout: layout))

        case let .copyRequested(what):
            return copy(what, keys: keys)

        case let .exportLineLoaded(id, line):
            return exportLineLoaded(id: id, line: line)

        case let .recordOpened(row):
            stack = []
            return open(row).then(.effects(loadIfNeeded(layout: layout)))

        case .pageLoaded, .detailLoaded, .recordDeleted, .allRecordsDeleted, .recordCommitted, .changedElsewhere, .loadFailed:
            return receive(action, layout: layout)
        }
    }

    /// Storage's answers and the shell's news: a page or a record read, a deletion done, a
    /// commit here or elsewhere, a read that failed.
    private mutating func receive(_ action: HistoryAction, layout: Layout) -> Outcome {
        switch action {
        case let .pageLoaded(page):
            guard page.mode == browseMode else { return .none }
            if let pendingLoad, pendingLoad.start != page.start { return .none }
            pendingLoad = nil
            hasLoaded = true
            window = page
            totalCount = page.totalCount
            if let preference = following {
                following = nil
                list.follow(preference, in: page.rows.map(\.id), startingAt: page.start, count: totalCount, viewport: layout.historyListRows)
            } else {
                list.clamp(count: totalCount, viewport: layout.historyListRows)
            }
            return .effects(loadIfNeeded(layout: layout))

        case let .detailLoaded(id, loaded):
            guard let loaded else {
                guard stack.contains(where: { $0.record.id == id }) else { return .none }
                stack.removeAll { $0.record.id == id }
                return Outcome(
                    effects: loadIfNeeded(layout: layout, force: true),
                    requests: [.status(StatusMessage("Record #\(id) is no longer in History.", kind: .error))]
                )
            }
            for index in stack.indices where stack[index].record.id == id {
                stack[index].load(loaded, layout: layout)
            }
            return .none

        case let .recordDeleted(id):
            stack.removeAll { $0.record.id == id }
            if let offset = window.rows.firstIndex(where: { $0.id == id }) {
                window.rows.remove(at: offset)
                window.totalCount = max(0, window.totalCount - 1)
                totalCount = max(0, totalCount - 1)
            } else {
                window = .empty(totalCount: totalCount, mode: browseMode)
            }
            list.clamp(count: totalCount, viewport: layout.historyListRows)
            followCursor()
            return Outcome(
                effects: loadIfNeeded(layout: layout, force: true),
                requests: [.status(StatusMessage("Deleted record #\(id).", kind: .success))]
            )

        case let .allRecordsDeleted(count):
            stack = []
            reset(totalCount: 0)
            hasLoaded = true
            return Outcome(
                effects: loadIfNeeded(layout: layout, force: true),
                requests: [.status(StatusMessage("Deleted \(Count.noun(count, "record")) and their photos.", kind: .success))]
            )

        case .recordCommitted:
            stack = []
            reset(totalCount: totalCount + 1)
            return .none

        case .changedElsewhere:
            followCursor()
            var effects = hasLoaded ? loadIfNeeded(layout: layout, force: true) : []
            if let detail { effects.append(.loadRecordDetail(detail.record.id)) }
            return .effects(effects)

        case .loadFailed:
            pendingLoad = nil
            return .none
        case .input, .backRequested, .browseModeCycled, .deleteRequested, .clearAllRequested, .rowsNeeded, .recordOpened,
            .copyRequested, .exportLineLoaded:
            return send(action, layout: layout)
        }
    }

    // MARK: - Rules

    /// Shows History from the top with `totalCount` records and no rows loaded: positions in the
    /// old window mean nothing any more. The count stays until the first page confirms it.
    public mutating func reset(totalCount: Int) {
        self.totalCount = totalCount
        list = ListPosition()
        window = .empty(totalCount: totalCount, mode: browseMode)
        pendingLoad = nil
        following = nil
    }

    /// The next page read is the same rows again, possibly moved: remember which record the
    /// cursor is on (and its neighbours) so it stays on it.
    private mutating func followCursor() {
        guard window.mode == browseMode, row(at: list.cursor) != nil else { return }
        following = ListPosition.preference(around: list.cursor, in: window.rows.map(\.id), startingAt: window.start)
    }

    /// Keeps the cursor, the scroll and every detail on the stack within range.
    public mutating func clamp(layout: Layout) {
        list.clamp(count: totalCount, viewport: layout.historyListRows)
        for index in stack.indices { stack[index].clamp(layout: layout) }
    }

    /// Pushes the record's detail and asks for its photos.
    private mutating func open(_ row: HistoryRow) -> Outcome {
        stack.append(HistoryDetailState(record: row))
        return .effects([.loadRecordDetail(row.id)])
    }

    mutating func replaceTop(with detail: HistoryDetailState) {
        stack[stack.count - 1] = detail
    }

    /// Asks for the rows around the visible range when the loaded window does not cover it (or,
    /// with `force`, always: after a deletion the rows on screen have moved).
    mutating func loadIfNeeded(layout: Layout, force: Bool = false) -> [AppEffect] {
        let viewport = layout.historyListRows
        let first = list.scrollOffset
        if hasLoaded, !force {
            let last = min(totalCount, first + viewport)
            let covered =
                window.mode == browseMode
                && first >= window.start && last <= window.start + window.rows.count
            if last <= first || covered { return [] }
        }
        var request = HistoryPageRequest(start: max(0, first - viewport), count: viewport * 3, mode: browseMode)
        let pending = pendingLoad.map { HistoryPageRequest(start: $0.start, count: $0.count, mode: $0.mode) }
        guard force || pending != request else { return [] }
        // Positions have moved when the cursor is being followed: read by position, not from a
        // record whose position is no longer known.
        request.anchor = following == nil ? anchor(near: request.start) : nil
        pendingLoad = request
        return [.loadHistory(request)]
    }

    /// The loaded row nearest to `position`, when the window holds rows of the mode showing:
    /// where a keyset read can start instead of counting from the top.
    private func anchor(near position: Int) -> HistoryAnchor? {
        guard window.mode == browseMode, !window.rows.isEmpty else { return nil }
        let offset = min(max(position - window.start, 0), window.rows.count - 1)
        return HistoryAnchor(position: window.start + offset, recordID: window.rows[offset].id)
    }
}

extension HistoryPage {
    /// No rows loaded yet, in `mode`'s order.
    static func empty(totalCount: Int, mode: HistoryBrowseMode) -> HistoryPage {
        HistoryPage(start: 0, rows: [], totalCount: totalCount, mode: mode)
    }
}
