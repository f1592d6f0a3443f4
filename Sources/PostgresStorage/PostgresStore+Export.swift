import Domain
import Foundation
import PostgresNIO
import Storage

/// `history export`, `history list`, `--follow` and the on-commit command on PostgreSQL: the
/// same `ExportedRecord`s as SQLite's, read a page at a time so memory does not grow with the
/// store. A photo's path is its copy in this host's photo cache, fetched as the export reaches
/// it (an export with more photos than the cache holds evicts its earliest ones again).
extension PostgresStore {
    /// A record's columns with its request's, for the export.
    // sql-fragment
    static let exportSelection = PostgresQueries.rowSelection(
        adding: """
            , request.body AS request_body, request.kind AS request_kind, request.status AS request_status,
                   request.created_at AS request_created_at, request.done_at AS request_done_at,
                   request.created_by AS request_created_by, request.requester AS request_requester,
                   capture.input_source, capture.uid, request.uid AS request_uid
            """)

    public func exportHistory(
        ids: ClosedRange<Int64>, start: (_ recordCount: Int) throws -> Void, _ body: (ExportedRecord) throws -> Void
    ) throws {
        let (low, high) = (ids.lowerBound, ids.upperBound)
        let count = try query { session throws(StorageError) in
            try session.value("SELECT count(*) FROM capture WHERE id BETWEEN \(low) AND \(high)", as: Int.self) ?? 0
        }
        try start(count)
        var after = low - 1
        while after < high {
            let page: [ExportedRecord] = try read { session throws(StorageError) in
                let rows = try session.rows(
                    PostgresQuery.bound(
                        Self.exportSelection
                            + "\nWHERE capture.id > $1 AND capture.id <= $2 ORDER BY capture.id LIMIT 200", after, high))
                guard let first = rows.first, let last = rows.last else { return [] }
                let firstID = try PostgresRows.historyRow(first, location).id
                let lastID = try PostgresRows.historyRow(last, location).id
                var byRecord: [Int64: [RecordPhoto]] = [:]
                try PostgresStatements(session: session).forEachRow(
                    """
                    SELECT capture_photo.capture_id, \(PostgresRows.photoColumns) \(PostgresRows.photoTables)
                    WHERE capture_photo.capture_id BETWEEN \(firstID) AND \(lastID)
                    ORDER BY capture_photo.capture_id, capture_photo.position
                    """
                ) { row throws(StorageError) in
                    guard let id = try row.integer(0) else { return }
                    byRecord[id, default: []].append(try PostgresRows.photo(row, from: 1, captureID: id, location))
                }
                let linesOfPage: PostgresQuery = """
                    SELECT capture_id, barcode, symbology, quantity FROM capture_line
                    WHERE capture_id BETWEEN \(firstID) AND \(lastID) ORDER BY capture_id, position
                    """
                let lines = try batchLines(session, linesOfPage)
                return try rows.map { row throws(StorageError) in
                    try exported(row, photos: byRecord, lines: lines)
                }
            }
            guard let last = page.last else { break }
            for record in page {
                // The files the export names are in this host's cache: fetched now.
                for photo in record.photos { _ = try photoFile(storedName: photo.storedName) }
                try body(record)
            }
            after = last.id
        }
    }

    public func historyListing(limit: Int?, _ body: (ExportedRecord) throws -> Void) throws {
        var remaining = limit.map { max($0, 0) } ?? Int.max
        var after: Int64?
        while remaining > 0 {
            let size = min(remaining, 500)
            let page: [ExportedRecord] = try read { session throws(StorageError) in
                var bindings = PostgresBindings()
                var filter = ""
                if let after {
                    bindings.append(after)
                    filter = "\nWHERE (capture.created_at, capture.id) < ((SELECT created_at FROM capture WHERE id = $1), $1)"
                }
                bindings.append(Int64(size))
                let limitPlaceholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
                let sql =
                    Self.exportSelection
                    + filter + "\nORDER BY capture.created_at DESC, capture.id DESC LIMIT " + limitPlaceholder
                let rows = try session.rows(PostgresQuery(unsafeSQL: sql, binds: bindings))
                // A batch's lines, for the batches of the page only.
                var batches: [Int64] = []
                for row in rows {
                    let cells = row.makeRandomAccess()
                    if (try? cells["kind"].decode(String.self)) == CaptureKind.batch.rawValue, let id = try? cells["id"].decode(Int64.self) {
                        batches.append(id)
                    }
                }
                let linesOfBatches: PostgresQuery = """
                    SELECT capture_id, barcode, symbology, quantity FROM capture_line
                    WHERE capture_id = ANY(\(batches)) ORDER BY capture_id, position
                    """
                let lines = batches.isEmpty ? [:] : try batchLines(session, linesOfBatches)
                return try rows.map { row throws(StorageError) in
                    try exported(row, lines: lines)
                }
            }
            for record in page { try body(record) }
            guard page.count == size, let last = page.last else { break }
            after = last.id
            remaining -= page.count
        }
    }

    /// The batch lines `query` selects (`capture_id, barcode, symbology, quantity` in scan
    /// order), by record.
    private func batchLines(_ session: PostgresSession, _ query: PostgresQuery) throws(StorageError) -> [Int64: [BatchLine]] {
        var lines: [Int64: [BatchLine]] = [:]
        for row in try session.rows(query) {
            guard let (id, value, name, quantity) = try? row.decode((Int64, String, String, Int32).self),
                let symbology = Symbology(rawValue: name)
            else { throw PostgresRows.unreadable("a batch line", location) }
            lines[id, default: []].append(BatchLine(barcode: Barcode(value: value, symbology: symbology), quantity: Int(quantity)))
        }
        return lines
    }

    /// A record row with its request's columns as the export's record, with its photos and
    /// lines from those read for its page.
    private func exported(
        _ row: PostgresRow, photos: [Int64: [RecordPhoto]] = [:], lines: [Int64: [BatchLine]]
    ) throws(StorageError) -> ExportedRecord {
        let history = try PostgresRows.historyRow(row, location)
        var request: InboxRequest?
        if let id = history.requestID {
            let cells = row.makeRandomAccess()
            do {
                guard let kind = CaptureKind(rawValue: try cells["request_kind"].decode(String.self)),
                    let status = RequestStatus(rawValue: try cells["request_status"].decode(String.self))
                else { throw PostgresRows.unreadable("a request", location) }
                request = InboxRequest(
                    id: id, title: history.requestTitle ?? "", body: try cells["request_body"].decode(String.self), kind: kind,
                    status: status, createdAt: try cells["request_created_at"].decode(Date.self),
                    requester: try cells["request_requester"].decode(String?.self), doneAt: try cells["request_done_at"].decode(Date?.self),
                    createdBy: try cells["request_created_by"].decode(String?.self))
            } catch let error as StorageError {
                throw error
            } catch {
                throw PostgresRows.unreadable("a request", location)
            }
        }
        var source: CodeSource?
        if let name = try? row.makeRandomAccess()["input_source"].decode(String?.self) {
            guard let known = CodeSource(rawValue: name) else { throw PostgresRows.unreadable("a record", location) }
            source = known
        }
        let cells = row.makeRandomAccess()
        return ExportedRecord(
            row: history, request: request, photos: photos[history.id] ?? [], mediaPath: media.mediaDirectory.path,
            lines: lines[history.id] ?? [], source: source, uid: try? cells["uid"].decode(String?.self),
            requestUID: try? cells["request_uid"].decode(String?.self))
    }
}
