import Domain
import Foundation
import GRDB
import Storage

extension AppDatabase {
    /// Every committed capture with its request and photos, in id order (the order they were
    /// committed), read from one snapshot through a cursor: memory stays constant however many
    /// records there are.
    ///
    /// `start` is called once, before the first record, with the number of records the snapshot
    /// holds; `body` once per record. An error thrown by either stops the export and is
    /// rethrown as it is (so a writer's "broken pipe" reaches its caller unchanged).
    ///
    /// `ids` narrows it to the records whose id is in the range (`history export --since`,
    /// `--follow`, one record for the on-commit command): ids grow in commit order, so "after
    /// the last one seen" misses nothing and repeats nothing.
    public func exportHistory(
        ids: ClosedRange<Int64> = 1...Int64.max,
        start: (_ recordCount: Int) throws -> Void,
        _ body: (ExportedRecord) throws -> Void
    ) throws {
        let mediaPath = media.mediaDirectory.path
        // Errors of the caller's closures are kept apart from the database's, so they come
        // back unchanged rather than as a database failure.
        var callerError: (any Error)?
        struct Stopped: Error {}
        func calling(_ work: () throws -> Void) throws {
            do { try work() } catch {
                callerError = error
                throw Stopped()
            }
        }
        do {
            try read { db in
                let range: StatementArguments = [ids.lowerBound, ids.upperBound]
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture WHERE id BETWEEN ? AND ?", arguments: range) ?? 0
                try calling { try start(count) }
                // One pass: captures in rowid order, each followed by its photos in position order
                // (served by photo's UNIQUE(captureId, position) index; no sort, no temp b-tree).
                let rows = try Row.fetchCursor(db, sql: Self.exportSQL, arguments: range)
                var pending: ExportedRecord?
                while let row = try rows.next() {
                    let id: Int64 = row["id"]
                    if pending?.id != id {
                        if let done = pending { try calling { try body(done) } }
                        pending = try Self.exportedRecord(row, mediaPath: mediaPath, db)
                    }
                    if let storedName: String = row["storedName"] {
                        pending?.photos.append(try Self.exportedPhoto(row, storedName: storedName))
                    }
                }
                if let done = pending { try calling { try body(done) } }
            }
        } catch {
            if let callerError { throw callerError }
            throw error
        }
    }

    /// History for `tabshell history list`: newest first, like the History tab, at most `limit`
    /// records (every one when nil), streamed through a cursor. `body` gets each record without
    /// its photos, and how many photos it has.
    public func historyListing(limit: Int?, _ body: (ExportedRecord) throws -> Void) throws {
        var callerError: (any Error)?
        struct Stopped: Error {}
        do {
            try read { db in
                let rows = try Row.fetchCursor(db, sql: Self.listingSQL, arguments: [limit.map { max($0, 0) } ?? -1])
                while let row = try rows.next() {
                    let record = try Self.exportedRecord(row, mediaPath: "", db)
                    do { try body(record) } catch {
                        callerError = error
                        throw Stopped()
                    }
                }
            }
        } catch {
            if let callerError { throw callerError }
            throw error
        }
    }

    /// A record's columns and its request's, as `exportedRecord` decodes them.
    // sql-fragment
    static let recordColumns = """
        capture.id, capture.kind, capture.barcode, capture.symbology, capture.note, capture.createdAt,
               request.id AS requestId, request.title AS requestTitle, request.body AS requestBody,
               request.kind AS requestKind, request.status AS requestStatus,
               request.createdAt AS requestCreatedAt, request.doneAt AS requestDoneAt,
               request.createdBy AS requestCreatedBy, request.requester AS requestRequester, capture.capturedBy,
               capture.requester, capture.productName, capture.productBrand, capture.inputSource,
               capture.uid, request.uid AS requestUid
        """

    static let listingSQL = """
        SELECT \(recordColumns),
               (SELECT COUNT(*) FROM photo WHERE photo.captureId = capture.id) AS photoCount
        FROM capture
        LEFT JOIN request ON request.id = capture.requestId
        ORDER BY capture.createdAt DESC, capture.id DESC
        LIMIT ?
        """

    /// Static SQL: no value is ever interpolated into it.
    static let exportSQL = """
        SELECT \(recordColumns),
               photo.id AS photoId, photo.position, photo.storedName, photo.originalName, photo.format,
               photo.pixelWidth, photo.pixelHeight, photo.byteSize
        FROM capture
        LEFT JOIN request ON request.id = capture.requestId
        LEFT JOIN photo ON photo.captureId = capture.id
        WHERE capture.id BETWEEN ? AND ?
        ORDER BY capture.id, photo.position
        """

    /// A batch's lines in scan order, read along `captureLine`'s primary key.
    static func batchLines(captureID: Int64, _ db: Database) throws -> [BatchLine] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT barcode, symbology, quantity FROM captureLine WHERE captureId = ? ORDER BY position"),
            arguments: [captureID])
        var lines: [BatchLine] = []
        while let row = try rows.next() {
            let symbology = try decode(Symbology.self, row["symbology"], column: "captureLine.symbology")
            lines.append(BatchLine(barcode: Barcode(value: row["barcode"] ?? "", symbology: symbology), quantity: row["quantity"] ?? 1))
        }
        return lines
    }

    private static func exportedRecord(_ row: Row, mediaPath: String, _ db: Database) throws -> ExportedRecord {
        let kind = try decode(CaptureKind.self, row["kind"], column: "capture.kind")
        var barcode: Barcode?
        if let value: String = row["barcode"] {
            let symbology = try decode(Symbology.self, row["symbology"], column: "capture.symbology")
            barcode = Barcode(value: value, symbology: symbology)
        }
        var request: InboxRequest?
        if let requestID: Int64 = row["requestId"] {
            request = InboxRequest(
                id: requestID, title: row["requestTitle"] ?? "", body: row["requestBody"] ?? "",
                kind: try decode(CaptureKind.self, row["requestKind"], column: "request.kind"),
                status: try decode(RequestStatus.self, row["requestStatus"], column: "request.status"),
                createdAt: row["requestCreatedAt"] ?? Date(timeIntervalSince1970: 0),
                requester: row["requestRequester"], doneAt: row["requestDoneAt"], createdBy: row["requestCreatedBy"])
        }
        let history = HistoryRow(
            id: row["id"], kind: kind, barcode: barcode, note: row["note"], requestID: request?.id, requestTitle: request?.title,
            createdAt: row["createdAt"] ?? Date(timeIntervalSince1970: 0), capturedBy: row["capturedBy"], requester: row["requester"],
            product: (row["productName"] as String?).map { Product(name: $0, brand: row["productBrand"]) },
            photoCount: row["photoCount"] ?? 0)
        var source: CodeSource?
        if let name: String = row["inputSource"] {
            source = try decode(CodeSource.self, name, column: "capture.inputSource")
        }
        let lines = kind == .batch ? try batchLines(captureID: history.id, db) : []
        return ExportedRecord(
            row: history, request: request, mediaPath: mediaPath, lines: lines, source: source, uid: row["uid"], requestUID: row["requestUid"])
    }

    private static func exportedPhoto(_ row: Row, storedName: String) throws -> RecordPhoto {
        RecordPhoto(
            id: row["photoId"] ?? 0, position: row["position"] ?? 0, originalName: row["originalName"] ?? "",
            format: try decode(ImageFormat.self, row["format"], column: "photo.format"),
            pixelWidth: row["pixelWidth"] ?? 0, pixelHeight: row["pixelHeight"] ?? 0, byteSize: row["byteSize"] ?? 0, storedName: storedName)
    }

    private static func decode<T: RawRepresentable>(_ type: T.Type, _ raw: String?, column: String) throws -> T
    where T.RawValue == String {
        guard let raw, let value = T(rawValue: raw) else {
            throw StorageError.sql("The database holds an unknown value \(raw.map { "\"\($0)\"" } ?? "NULL") in \(column).")
        }
        return value
    }
}
