import Domain
import Foundation

/// One committed record with everything a copy to another engine keeps: the record as History
/// shows it, the columns History does not show (where it was committed from, where its code
/// came from), its GS1 fields, batch lines and photos with their files.
public struct CopiedRecord: Sendable {
    public var row: HistoryRow
    public var stagingID: String?
    public var inputSource: String?
    /// Its identity, which export and import match records by (nil only where a store has none).
    public var uid: String?
    /// GS1 fields as stored: (AI, value).
    public var elements: [(ai: String, value: String)]
    public var lines: [BatchLine]
    /// In order, each with the file its bytes are in.
    public var photos: [(photo: RecordPhoto, file: URL)]
}

/// A store `tabshell db copy` can read from (SQLite; the copy's target is another engine).
public protocol CopySource: StatementStore {}

extension CopySource {
    /// Everything the store holds, from one snapshot (``StatementStore/readForCopy(_:settings:request:record:product:)``).
    public func readForCopy(
        settings: (Settings) throws(StorageError) -> Void,
        request: (InboxRequest, _ uid: String?) throws(StorageError) -> Void,
        record: (CopiedRecord) throws(StorageError) -> Void,
        product: (String, Product) throws(StorageError) -> Void
    ) throws(StorageError) {
        try reading { session throws(StorageError) in
            try readForCopy(session, settings: settings, request: request, record: record, product: product)
        }
    }
}

extension StatementStore {
    /// Everything a copy carries, read on `session` in id order: the settings, every request
    /// with its uid, every record (``CopiedRecord``) and every catalog product in byte order of
    /// its code. A page at a time (a record's GS1 fields, lines and photos read for its whole
    /// page), so memory does not grow with the store. `db copy` reads its source with it, and
    /// its target inside the copy's transaction for the checksum.
    public func readForCopy(
        _ session: any StatementSession,
        settings: (Settings) throws(StorageError) -> Void,
        request: (InboxRequest, _ uid: String?) throws(StorageError) -> Void,
        record: (CopiedRecord) throws(StorageError) -> Void,
        product: (String, Product) throws(StorageError) -> Void
    ) throws(StorageError) {
        try settings(try SettingsRows.settings(session))
        var after: Int64 = 0
        while true {
            let page: StoreSQL = "SELECT \(RequestRows.columns), uid FROM request WHERE id > \(after) ORDER BY id LIMIT 1000"
            let requests = try session.all(page) { row throws(StorageError) in
                (try RequestRows.request(row, session), try row.text(RequestRows.columnCount))
            }
            guard let last = requests.last else { break }
            for (found, uid) in requests { try request(found, uid) }
            after = last.0.id
        }
        after = 0
        while true {
            let page: StoreSQL = """
                SELECT \(HistoryRows.columns), capture.staging_id, capture.input_source, capture.uid \(HistoryRows.from)
                WHERE capture.id > \(after) ORDER BY capture.id LIMIT 500
                """
            let rows = try session.all(page) { row throws(StorageError) in
                CopiedRecord(
                    row: try HistoryRows.historyRow(row, session.unreadable("a record")), stagingID: try row.text(HistoryRows.columnCount),
                    inputSource: try row.text(HistoryRows.columnCount + 1), uid: try row.text(HistoryRows.columnCount + 2), elements: [],
                    lines: [], photos: [])
            }
            guard let first = rows.first?.row.id, let last = rows.last?.row.id else { break }
            var elements: [Int64: [(ai: String, value: String)]] = [:]
            let fields: StoreSQL = """
                SELECT capture_id, ai, value FROM capture_element WHERE capture_id BETWEEN \(first) AND \(last) ORDER BY capture_id, ai
                """
            try session.forEachRow(fields) { row throws(StorageError) in
                guard let id = try row.integer(0), let ai = try row.text(1), let value = try row.text(2) else {
                    throw session.unreadable("a GS1 field")
                }
                elements[id, default: []].append((ai, value))
            }
            let lines = try HistoryRows.batchLines(ofRecords: first...last, session)
            let photos = try self.photos(ofRecords: first...last, session)
            for var found in rows {
                let id = found.row.id
                found.elements = elements[id] ?? []
                found.lines = lines[id] ?? []
                found.photos = (photos[id] ?? []).map { (photo: $0, file: media.url(forStoredName: $0.storedName)) }
                try record(found)
            }
            after = last
        }
        // After the last code read, in the codes' byte order (PostgreSQL's "C" collation).
        let order = session.dialect.codeInByteOrder
        func following(_ code: String) -> StoreSQL { "WHERE \(order) > \(code) " }
        var code: String?
        while true {
            let page: StoreSQL = "SELECT code, name, brand, quantity, energy_kcal FROM product \(code.map(following) ?? "")ORDER BY \(order) LIMIT 1000"
            let products = try session.all(page) { row throws(StorageError) in try CatalogRows.codeAndProduct(row, session) }
            guard let last = products.last else { break }
            for (found, details) in products { try product(found, details) }
            code = last.0
        }
    }
}
