import Domain
import Foundation
import GRDB
import Storage

extension AppDatabase: CopySource {
    /// Everything a copy to another engine needs, read from one snapshot in id order: the
    /// settings, every request, every record and every catalog product. Records are read a
    /// page at a time, so memory does not grow with the store.
    public func readForCopy(
        settings: (Settings) throws -> Void,
        request: (InboxRequest, _ uid: String?) throws -> Void,
        record: (CopiedRecord) throws -> Void,
        product: (String, Product) throws -> Void
    ) throws {
        try writer.read { db in
            let statements = SQLiteStatements(db: db, path: url.path)
            try settings(try SettingsRows.settings(statements))
            let requests = try statements.all("SELECT \(RequestRows.columns), uid FROM request ORDER BY id") { row throws(StorageError) in
                (try RequestRows.request(row, statements), try row.text(RequestRows.columnCount))
            }
            for (found, uid) in requests { try request(found, uid) }
            var after: Int64 = 0
            while true {
                let page: StoreSQL = """
                    SELECT \(HistoryRows.columns), capture.staging_id, capture.input_source, capture.uid
                    \(HistoryRows.from)
                    WHERE capture.id > \(after) ORDER BY capture.id LIMIT 500
                    """
                let rows = try statements.all(page) { row throws(StorageError) in
                    (
                        row: try HistoryRows.historyRow(row, statements.unreadable("a record")),
                        stagingID: try row.text(HistoryRows.columnCount), inputSource: try row.text(HistoryRows.columnCount + 1),
                        uid: try row.text(HistoryRows.columnCount + 2)
                    )
                }
                guard let last = rows.last else { break }
                after = last.row.id
                for found in rows {
                    try record(
                        try copiedRecord(found.row, stagingID: found.stagingID, inputSource: found.inputSource, uid: found.uid, statements))
                }
            }
            let products = try Row.fetchCursor(db, sql: "SELECT code, name, brand, quantity, energyKcal FROM product ORDER BY code")
            while let row = try products.next() {
                try product(row["code"], Product(name: row["name"], brand: row["brand"], quantity: row["quantity"], energyKcal: row["energyKcal"]))
            }
        }
    }

    /// A record with what a copy carries beside its History row: its GS1 fields, batch lines and
    /// photo files.
    private func copiedRecord(
        _ history: HistoryRow, stagingID: String?, inputSource: String?, uid: String?, _ statements: SQLiteStatements
    ) throws
        -> CopiedRecord
    {
        let id = history.id
        let elements = try statements.all("SELECT ai, value FROM capture_element WHERE capture_id = \(id) ORDER BY ai") {
            row throws(StorageError) in (ai: try row.text(0) ?? "", value: try row.text(1) ?? "")
        }
        return CopiedRecord(
            row: history, stagingID: stagingID, inputSource: inputSource, uid: uid, elements: elements,
            lines: try HistoryRows.batchLines(ofRecord: id, statements),
            photos: try photos(ofRecord: id, statements).map { (photo: $0, file: media.url(forStoredName: $0.storedName)) })
    }
}
