import Domain
import Foundation
import GRDB
import Storage

/// History's reads of SQLite's own: search's statement for the `captureSearch` full-text index,
/// and a record's photos (files beside the database). The pages, the detail and search's steps
/// are Storage's (StatementStore+History.swift), and so is deleting (StatementStore+Delete.swift,
/// over this engine's photo hooks in AppDatabase+Photos.swift).
extension AppDatabase {
    // MARK: - Search

    /// One statement: the `captureSearch` full-text index hands back the newest `limit` matches
    /// by id (``HistoryQueries/search(_:limit:)``).
    public func searchStatements(_ text: String, limit: Int) -> [StoreSQL] {
        HistoryQueries.search(text, limit: limit).map { [$0] } ?? []
    }

    // MARK: - Photos

    /// The photos of the records in `ids`, each record's in the order they were added (along
    /// the photo table's `(captureId, position)` key).
    public func photos(ofRecords ids: ClosedRange<Int64>, _ session: any StatementSession) throws(StorageError)
        -> [Int64: [RecordPhoto]]
    {
        let photos: StoreSQL = """
            SELECT capture_id, id, position, original_name, format, pixel_width, pixel_height, byte_size, stored_name
            FROM capture_photo WHERE capture_id BETWEEN \(ids.lowerBound) AND \(ids.upperBound) ORDER BY capture_id, position
            """
        var byRecord: [Int64: [RecordPhoto]] = [:]
        try session.forEachRow(photos) { row throws(StorageError) in
            guard let record = try row.integer(0), let id = try row.integer(1), let position = try row.integer(2),
                let originalName = try row.text(3), let format = try row.text(4).flatMap(ImageFormat.init(rawValue:)),
                let width = try row.integer(5), let height = try row.integer(6), let bytes = try row.integer(7),
                let storedName = try row.text(8)
            else { throw session.unreadable("a photo") }
            byRecord[record, default: []].append(
                RecordPhoto(
                    id: id, position: Int(position), originalName: originalName, format: format, pixelWidth: Int(width),
                    pixelHeight: Int(height), byteSize: bytes, storedName: storedName))
        }
        return byRecord
    }

    /// The export reads the photos where they are, in the media folder.
    public func exportFiles(of photos: [RecordPhoto], _ session: any StatementSession) {}
}
