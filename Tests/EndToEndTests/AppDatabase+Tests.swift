import Domain

@testable import SQLiteStorage
@testable import Storage

/// What the end-to-end tests ask of the SQLite store a run left behind.
extension AppDatabase {
    /// The number of committed captures (kept by triggers; no count of the table): the app
    /// reads the count with each History page.
    func historyCount() throws(StorageError) -> Int {
        let count = try reading { session throws(StorageError) in
            try session.first("SELECT count FROM capture_count WHERE id = 1") { row throws(StorageError) in try row.integer(0) }
        }
        return count.map(Int.init) ?? 0
    }

    /// The photos of the capture `id`, in the order they were added (empty when there are none
    /// or there is no such capture): the app reads them with the record's detail.
    func photos(forRecord id: Int64) throws(StorageError) -> [RecordPhoto] {
        try reading { session throws(StorageError) in try photos(ofRecord: id, session) }
    }
}
