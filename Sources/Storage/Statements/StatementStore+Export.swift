import Domain
import Foundation

/// `history export`, `history list`, `--follow` and the on-commit command's input, written once
/// for both engines: ``ExportedRecord``s read a page at a time on one snapshot, so memory does
/// not grow with the store and the count said first is the number of records that follow.
extension StatementStore {
    /// Every record whose id is in `ids`, with its request, photos and batch lines, in id order
    /// (the order they were committed).
    ///
    /// `start` is called once, before the first record, with the number of records the snapshot
    /// holds; `body` once per record, its photos' files readable at ``ExportedRecord/path(of:)``
    /// (``exportFiles(of:_:)``). An error thrown by either stops the export and is rethrown as
    /// it is (so a writer's "broken pipe" reaches its caller unchanged).
    ///
    /// `ids` narrows it (`history export --since`, `--follow`, one record for the on-commit
    /// command): ids grow in commit order, so "after the last one seen" misses nothing and
    /// repeats nothing.
    public func exportHistory(
        ids: ClosedRange<Int64> = 1...Int64.max, start: (_ recordCount: Int) throws -> Void, _ body: (ExportedRecord) throws -> Void
    ) throws {
        let (low, high) = (ids.lowerBound, ids.upperBound)
        let handover = Handover()
        try handover.run {
            try reading { session throws(StorageError) in
                let count = try session.integer("SELECT count(*) FROM capture WHERE id BETWEEN \(low) AND \(high)") ?? 0
                try handover.hand { try start(Int(count)) }
                var from = low
                while true {
                    let ids: StoreSQL = "capture.id BETWEEN \(from) AND \(high)"
                    let page = ExportRows.Page(
                        condition: ids, order: SQLFragment("capture.id"), limit: ExportRows.pageSize, figures: HistoryRows.noFigures)
                    let records = try ExportRows.records(page, photos: true, of: self, session)
                    for record in records {
                        try exportFiles(of: record.photos, session)
                        try handover.hand { try body(record) }
                    }
                    guard records.count == ExportRows.pageSize, let last = records.last?.id, last < high else { return }
                    from = last + 1
                }
            }
        }
    }

    /// History for `tabshell history list`: newest first, like the History tab, at most `limit`
    /// records (every one when nil), read a page at a time on one snapshot. `body` gets each
    /// record without its photos, and how many photos it has.
    public func historyListing(limit: Int?, _ body: (ExportedRecord) throws -> Void) throws {
        var remaining = limit.map { max($0, 0) } ?? Int.max
        let handover = Handover()
        try handover.run {
            try reading { session throws(StorageError) in
                var after: Int64?
                while remaining > 0 {
                    let size = min(remaining, ExportRows.pageSize)
                    let older: StoreSQL = "TRUE\(HistoryStatements.past(after, .forward))"
                    let page = ExportRows.Page(
                        condition: older, order: SQLFragment("capture.created_at DESC, capture.id DESC"), limit: size,
                        figures: HistoryRows.figures)
                    let records = try ExportRows.records(page, photos: false, of: self, session)
                    for record in records { try handover.hand { try body(record) } }
                    guard records.count == size, let last = records.last else { return }
                    after = last.id
                    remaining -= size
                }
            }
        }
    }
}

/// Carries an error of the caller's closures out of a read: it stops the read and comes back as
/// it was (a writer's "broken pipe"), not as a storage failure.
private final class Handover {
    private var callerError: (any Error)?

    /// Runs `work`, a call of the caller's, inside the read.
    func hand(_ work: () throws -> Void) throws(StorageError) {
        do { try work() } catch {
            callerError = error
            throw .cancelled
        }
    }

    /// Runs `read`; the caller's error when one stopped it.
    func run(_ read: () throws -> Void) throws {
        do { try read() } catch {
            if let callerError { throw callerError }
            throw error
        }
    }
}

/// The export's columns after History's (``HistoryRows/columns``) and their reading.
enum ExportRows {
    /// Records read per statement.
    static let pageSize = 500

    /// The request's columns the History row does not have, and the record's source and
    /// identities.
    static let columns = SQLFragment(
        """
        request.body AS request_body, request.kind AS request_kind, request.status AS request_status,
               request.created_at AS request_created_at, request.done_at AS request_done_at,
               request.created_by AS request_created_by, request.requester AS request_requester,
               capture.input_source, capture.uid, request.uid AS request_uid
        """)

    /// The records a statement reads: those `condition` selects, in `order`, at most `limit`,
    /// with History's list `figures` or ``HistoryRows/noFigures``.
    struct Page {
        let condition: StoreSQL
        let order: SQLFragment
        let limit: Int
        let figures: SQLFragment

        /// The page's ids, for the statements that read its photos and lines.
        var ids: StoreSQL { "SELECT capture.id FROM capture WHERE \(condition) ORDER BY \(order) LIMIT \(limit)" }
    }

    /// The records of `page` with their batch lines and, with `photos`, their photos.
    static func records(
        _ page: Page, photos: Bool, of store: some StatementStore, _ session: any StatementSession
    ) throws(StorageError) -> [ExportedRecord] {
        let rows: StoreSQL = """
            SELECT \(HistoryRows.recordColumns), \(page.figures), \(columns) \(HistoryRows.from)
            WHERE \(page.condition) ORDER BY \(page.order) LIMIT \(page.limit)
            """
        let records = try session.all(rows) { row throws(StorageError) in try record(row, session) }
        guard let low = records.map(\.id).min(), let high = records.map(\.id).max() else { return [] }
        let lines =
            records.contains { $0.kind == .batch } ? try HistoryRows.batchLines(where: "capture_id IN (\(page.ids))", unreadable: session.unreadable("a batch line"), session) : [:]
        // An export's pages are in id order: the photos of the ids between its first and last.
        let pictures = photos ? try store.photos(ofRecords: low...high, session) : [:]
        let mediaPath = store.media.mediaDirectory.path
        return records.map { record in
            ExportedRecord(
                row: record.row, request: record.request, photos: pictures[record.id] ?? [], mediaPath: mediaPath,
                lines: lines[record.id] ?? [], source: record.source, uid: record.uid, requestUID: record.requestUID)
        }
    }

    /// One row: the History row, its request, source and identities.
    private static func record(_ row: any SQLRow, _ session: any StatementSession) throws(StorageError) -> ExportedRecord {
        let history = try HistoryRows.historyRow(row, session.unreadable("a record"))
        let first = HistoryRows.columnCount
        var request: InboxRequest?
        if let id = history.requestID {
            guard let kind = try row.text(first + 1).flatMap(CaptureKind.init(rawValue:)),
                let status = try row.text(first + 2).flatMap(RequestStatus.init(rawValue:)), let createdAt = try row.time(first + 3)
            else { throw session.unreadable("a request") }
            request = InboxRequest(
                id: id, title: history.requestTitle ?? "", body: try row.text(first) ?? "", kind: kind, status: status,
                createdAt: createdAt, requester: try row.text(first + 6), doneAt: try row.time(first + 4),
                createdBy: try row.text(first + 5))
        }
        var source: CodeSource?
        if let name = try row.text(first + 7) {
            guard let known = CodeSource(rawValue: name) else { throw session.unreadable("a record") }
            source = known
        }
        return ExportedRecord(row: history, request: request, source: source, uid: try row.text(first + 8), requestUID: try row.text(first + 9))
    }
}
