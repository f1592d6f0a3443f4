import Domain

@testable import SQLiteStorage
@testable import Storage

/// What the end-to-end tests ask of the SQLite store a run left behind.
extension AppDatabase {
    /// The number of committed captures, as History's page gives it (kept by triggers; no count
    /// of the table).
    func historyCount() throws(StorageError) -> Int { try historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount }

    /// The photos of the capture `id` in the order they were added, as its detail lists them
    /// (none for no such capture).
    func photos(forRecord id: Int64) throws(StorageError) -> [RecordPhoto] { try recordDetail(id: id)?.photos ?? [] }
}
