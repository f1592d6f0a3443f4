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
        let photoColumns = HistoryQueries.photoColumns  // sql-fragment
        try writer.read { db in
            try settings(try SettingsRows.settings(SQLiteStatements(db: db, path: url.path)))
            for found in try RequestRecord.order(Column("id")).fetchAll(db) {
                guard let value = found.inboxRequest else { continue }
                try request(value)
            }
            var after: Int64 = 0
            while true {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT capture.id, capture.kind, capture.barcode, capture.symbology, capture.note,
                               capture.requestId, request.title AS requestTitle, capture.createdAt, capture.capturedBy,
                               capture.requester, capture.productName, capture.productBrand, capture.stagingId, capture.inputSource,
                               \(photoColumns)
                        FROM capture LEFT JOIN request ON request.id = capture.requestId
                        WHERE capture.id > ? ORDER BY capture.id LIMIT 500
                        """, arguments: [after])
                guard let last = rows.last else { break }
                after = last["id"]
                for row in rows {
                    try record(try Self.copiedRecord(row, media: media, db))
                }
            }
            let products = try Row.fetchCursor(db, sql: "SELECT code, name, brand, quantity, energyKcal FROM product ORDER BY code")
            while let row = try products.next() {
                try product(row["code"], Product(name: row["name"], brand: row["brand"], quantity: row["quantity"], energyKcal: row["energyKcal"]))
            }
        }
    }

    private static func copiedRecord(_ row: Row, media: MediaStore, _ db: Database) throws -> CopiedRecord {
        let history = try HistoryRowRecord(row: row).historyRow
        let id = history.id
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
            row: history, stagingID: row["stagingId"], inputSource: row["inputSource"], elements: elements, lines: lines,
            photos: photos)
    }
}
