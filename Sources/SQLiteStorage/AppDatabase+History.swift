import Domain
import Foundation
import GRDB
import Storage

/// History's reads beyond the plain newest-first page: the grouped browse modes, search, and a
/// record's detail with its photos. Deleting is ``deleteRecord(id:)`` and ``deleteAllRecords()``
/// (AppDatabase+Photos.swift), which also remove the photo files once the rows are gone.
///
/// Every query pages or stops early: nothing here loads every record, and nothing sorts the
/// whole `capture` table (the query-plan tests in HistoryQueryTests hold that).
extension AppDatabase {
    // MARK: - Browse modes

    /// The captures at positions `start ..< start + count` in `request.mode`'s order, read in
    /// one snapshot with the total count. A `start` outside the records is clamped to the last
    /// one (or 0 when there are none).
    ///
    /// - `.all`: newest first.
    /// - `.byRequest`: grouped by the request they answer, groups in the order of the requests'
    ///   titles (ASCII case-insensitive, then oldest request first), records without a request
    ///   last; newest first within a group.
    /// - `.byKind`: grouped by kind in `CaptureKind` order (Barcode, Photos, Product, Note);
    ///   newest first within a group.
    ///
    /// Every mode is read by keyset along an index: from the top, from the bottom, or from the
    /// request's anchor, whichever is nearest, so a page next to the rows on screen (Down,
    /// PgDn) and the first and last pages (Home, End) cost the same at any size. The count comes
    /// from `captureCount`, which triggers keep.
    public func historyPage(_ request: HistoryPageRequest) throws(StorageError) -> HistoryPage {
        let mode = request.mode
        return try read { db in
            let total = try HistoryQueries.count(db)
            let (start, positions) = request.window(total: total)
            guard !positions.isEmpty else {
                return HistoryPage(start: start, rows: [], totalCount: total, mode: mode)
            }
            let records = try HistoryWalk(SQLiteHistorySource(db: db)).rows(mode, at: positions, total: total, anchor: request.anchor)
            return HistoryPage(
                start: start, rows: records.map(\.historyRow), totalCount: total, mode: mode,
                hasSeveralPeople: try HistoryQueries.hasSeveralPeople(db))
        }
    }

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
        return try read { db in
            try HistoryRowRecord.fetchAll(db, sql: statement.sql, arguments: statement.arguments).map(\.historyRow)
        }
    }

    // MARK: - Detail

    /// The capture `id` as History shows it, with its photos in the order they were added, read
    /// in one snapshot; nil when there is no such capture.
    public func recordDetail(id: Int64) throws(StorageError) -> RecordDetail? {
        // Plain SQL rather than the query interface: building the association request made
        // GRDB introspect the schema on the first detail a process opened (~4 ms of the key).
        try read { db in
            guard
                let record = try HistoryRowRecord.fetchOne(
                    db, sql: HistoryQueries.rowSelection + "\nWHERE capture.id = ?", arguments: [id]
                )
            else {
                return nil
            }
            let photos =
                try PhotoRecord
                .fetchAll(db, sql: "SELECT * FROM photo WHERE captureId = ? ORDER BY position", arguments: [id])
                .compactMap(\.recordPhoto)
            let lines = try Row.fetchAll(
                db, sql: "SELECT barcode, symbology, quantity FROM captureLine WHERE captureId = ? ORDER BY position", arguments: [id]
            ).compactMap { row -> BatchLine? in
                guard let value: String = row["barcode"], let name: String = row["symbology"],
                    let symbology = Symbology(rawValue: name), let quantity: Int = row["quantity"]
                else { return nil }
                return BatchLine(barcode: Barcode(value: value, symbology: symbology), quantity: quantity)
            }
            return RecordDetail(record: record.historyRow, photos: photos, lines: lines)
        }
    }
}
