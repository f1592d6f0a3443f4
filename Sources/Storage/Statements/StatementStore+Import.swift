import Domain
import Foundation

/// What an import asks a store before it writes, written once for both engines: which of its
/// records and requests the store holds already, by uid or by content.
extension StatementStore {
    /// Which of `history`'s records and requests this store already holds (for `--dry-run`, and
    /// so only the new records' photos are copied in).
    public func importMatches(_ history: ImportedHistory) throws(StorageError) -> ImportMatches {
        try reading { session throws(StorageError) in try StatementImportLookup.matches(of: history, session) }
    }
}

/// The questions an import asks for the matching (``ImportedHistory/matches(in:)``), on one
/// snapshot (a dry run) or inside the import's own transaction.
public struct StatementImportLookup {
    let session: any StatementSession

    /// `history`'s records and requests that the store of `session` holds.
    public static func matches(of history: ImportedHistory, _ session: any StatementSession) throws(StorageError) -> ImportMatches {
        try history.matches(in: StatementImportLookup(session: session))
    }

    /// A millisecond either side of `date`: the export keeps times to the millisecond.
    private static func window(_ date: Date) -> (Date, Date) {
        (date.addingTimeInterval(-0.001), date.addingTimeInterval(0.001))
    }

    /// The id of the row of `table` (`capture` for a record, `request`) with this uid, if the
    /// store has it.
    func id(in table: SQLFragment, uid: String) throws(StorageError) -> Int64? {
        var statement: StoreSQL = "SELECT id FROM \(table) WHERE uid = \(uid)"
        statement.isRepeated = true
        return try session.integer(statement)
    }

    /// The records made within a millisecond of `date`, each with what it is.
    func records(near date: Date) throws(StorageError) -> [(id: Int64, fingerprint: RecordFingerprint)] {
        let (low, high) = Self.window(date)
        var near: StoreSQL = """
            SELECT id, kind, barcode, symbology, note, captured_by, created_at FROM capture
            WHERE created_at BETWEEN \(low) AND \(high)
            """
        near.isRepeated = true
        var found: [(id: Int64, fingerprint: RecordFingerprint)] = []
        try session.forEachRow(near) { row throws(StorageError) in
            guard let id = try row.integer(0), let kind = try row.text(1).flatMap(CaptureKind.init(rawValue:)),
                let createdAt = try row.time(6)
            else { return }
            var barcode: Barcode?
            if let value = try row.text(2), let symbology = try row.text(3).flatMap(Symbology.init(rawValue:)) {
                barcode = Barcode(value: value, symbology: symbology)
            }
            let fingerprint = RecordFingerprint(
                kind: kind, milliseconds: RecordIdentity.milliseconds(createdAt), capturedBy: try row.text(5), barcode: barcode, note: try row.text(4), lines: [])
            found.append((id, fingerprint))
        }
        // A batch's lines, read once the records' statement is done.
        for index in found.indices where found[index].fingerprint.kind == .batch {
            found[index].fingerprint.lines = try HistoryRows.batchLines(ofRecord: found[index].id, session)
        }
        return found
    }

    /// The requests made within a millisecond of `date`, each with what it is.
    func requests(near date: Date) throws(StorageError) -> [(id: Int64, fingerprint: RequestFingerprint)] {
        let (low, high) = Self.window(date)
        var found: [(id: Int64, fingerprint: RequestFingerprint)] = []
        var near: StoreSQL = "SELECT id, title, kind, created_at FROM request WHERE created_at BETWEEN \(low) AND \(high)"
        near.isRepeated = true
        try session.forEachRow(near) { row throws(StorageError) in
            guard let id = try row.integer(0), let title = try row.text(1), let kind = try row.text(2).flatMap(CaptureKind.init(rawValue:)),
                let createdAt = try row.time(3)
            else { return }
            found.append((id, RequestFingerprint(title: title, kind: kind, milliseconds: RecordIdentity.milliseconds(createdAt))))
        }
        return found
    }
}

/// The requests' writes of Done and of an import, the same on both engines.
extension RequestRows {
    /// Done's step for the request a capture answers: done at `now`, unless it is done
    /// already; ``StorageError/requestNotFound(id:)`` when it is gone. Its row is locked for
    /// the rest of the write where rows are locked (PostgreSQL).
    public static func markAnswered(id: Int64, now: Date, _ session: any StatementSession) throws(StorageError) {
        let lock = session.dialect.forUpdate
        guard let status = try session.first("SELECT status FROM request WHERE id = \(id)\(lock)", { row throws(StorageError) in try row.text(0) })
        else {
            throw .requestNotFound(id: id)
        }
        if status != RequestStatus.done.rawValue {
            try session.execute("UPDATE request SET status = 'done', done_at = \(now) WHERE id = \(id)")
        }
    }

    /// An import's requests that the store does not hold (``ImportMatches/newRequests(of:)``),
    /// added as they were, each with its uid; every request's id in the store by its index in
    /// the import.
    public static func insertImported(_ history: ImportedHistory, _ matches: ImportMatches, _ session: any StatementSession)
        throws(StorageError) -> [Int: Int64]
    {
        var ids = matches.presentRequests
        for index in matches.newRequests(of: history).sorted() {
            let request = history.requests[index]
            let insert: StoreSQL = """
                INSERT INTO request (title, body, kind, status, created_at, done_at, created_by, requester, uid)
                VALUES (\(request.title), \(request.body), \(request.kind.rawValue), \(request.status.rawValue),
                        \(request.createdAt), \(request.doneAt), \(request.createdBy), \(request.requester),
                        \(history.uid(ofRequest: index)))
                RETURNING id
                """
            guard let id = try session.integer(insert) else { throw session.unreadable("a new request without its id") }
            ids[index] = id
        }
        return ids
    }
}
