import Domain
import Foundation
import GRDB
import Storage

/// History's reads of SQLite's own: search through the `captureSearch` full-text index, and a
/// record's photos (files beside the database). The pages and the detail are Storage's
/// (StatementStore+History.swift); deleting is ``deleteRecord(id:)`` and
/// ``deleteAllRecords()`` (AppDatabase+Photos.swift), which also remove the photo files.
extension AppDatabase {
    // MARK: - Search

    /// Up to `limit` captures with a word in their code, note, request title, person, product
    /// or batch line codes that starts with each word of `query` (case- and
    /// accent-insensitively), newest first; in a script written without spaces (Han, kana,
    /// Hangul, Thai…) any part of a run matches (``SearchText``). A query without a letter or
    /// digit matches nothing.
    ///
    /// The words go to the `captureSearch` full-text index as quoted prefix terms and phrases,
    /// never as FTS syntax of their own; the index hands back the newest `limit` matches by id.
    public func search(_ query: String, limit: Int) throws(StorageError) -> [HistoryRow] {
        let text = try StorageLimits.searchText(query)
        guard limit > 0, let statement = HistoryQueries.search(text, limit: limit) else { return [] }
        return try reading { session throws(StorageError) in
            try session.all(statement) { row throws(StorageError) in try HistoryRows.historyRow(row, session.unreadable("a record")) }
        }
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
