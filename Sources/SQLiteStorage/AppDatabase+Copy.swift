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
        request: (InboxRequest) throws -> Void,
        record: (CopiedRecord) throws -> Void,
        product: (String, Product) throws -> Void
    ) throws {
        let media = self.media
        try writer.read { db in
            let statements = SQLiteStatements(db: db, path: url.path)
            try settings(try SettingsRows.settings(statements))
            for found in try statements.rows("SELECT \(RequestRows.columns) FROM request ORDER BY id") {
                try request(try RequestRows.request(found, statements))
            }
            var after: Int64 = 0
            while true {
                let page: StoreSQL = """
                    SELECT \(HistoryRows.columns), capture.staging_id, capture.input_source
                    \(HistoryRows.from)
                    WHERE capture.id > \(after) ORDER BY capture.id LIMIT 500
                    """
                let rows = try statements.rows(page)
                guard !rows.isEmpty else { break }
                for row in rows {
                    let copied = try Self.copiedRecord(row, media: media, statements)
                    after = copied.row.id
                    try record(copied)
                }
            }
            let products = try Row.fetchCursor(db, sql: "SELECT code, name, brand, quantity, energyKcal FROM product ORDER BY code")
            while let row = try products.next() {
                try product(row["code"], Product(name: row["name"], brand: row["brand"], quantity: row["quantity"], energyKcal: row["energyKcal"]))
            }
        }
    }

    private static func copiedRecord(_ row: any SQLRow, media: MediaStore, _ statements: SQLiteStatements) throws -> CopiedRecord {
        let history = try HistoryRows.historyRow(row, statements.unreadable("a record"))
        let id = history.id
        let db = statements.db
        let elements = try Row.fetchAll(db, sql: "SELECT ai, value FROM captureElement WHERE captureId = ? ORDER BY ai", arguments: [id])
            .map { (ai: $0["ai"] as String, value: $0["value"] as String) }
        let lines = try Row.fetchAll(
            db, sql: "SELECT barcode, symbology, quantity FROM captureLine WHERE captureId = ? ORDER BY position", arguments: [id]
        ).compactMap { line -> BatchLine? in
            guard let value: String = line["barcode"], let name: String = line["symbology"], let symbology = Symbology(rawValue: name),
                let quantity: Int = line["quantity"]
            else { return nil }
            return BatchLine(barcode: Barcode(value: value, symbology: symbology), quantity: quantity)
        }
        let photos =
            try PhotoRecord
            .fetchAll(db, sql: "SELECT * FROM photo WHERE captureId = ? ORDER BY position", arguments: [id])
            .map { record -> (photo: RecordPhoto, file: URL) in
                guard let photo = record.recordPhoto else {
                    throw StorageError.sql("Record #\(id) has a photo row tabshell cannot read (\(record.storedName)).")
                }
                return (photo, media.url(forStoredName: record.storedName))
            }
        return CopiedRecord(
            row: history, stagingID: try row.text(HistoryRows.columnCount), inputSource: try row.text(HistoryRows.columnCount + 1),
            elements: elements, lines: lines,
            photos: photos)
    }
}
