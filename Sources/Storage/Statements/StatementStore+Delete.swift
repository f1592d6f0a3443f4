import Domain
import Foundation

/// Deleting records, written once for both engines: the rows in one transaction (the request a
/// record answered pending again when no other record answers it), then, once that has
/// committed, the photo files no row names any more (``photoFilesFreed(by:_:)``,
/// ``removePhotoFiles(_:)``). A crash between the two leaves only files no row names, which the
/// engine's recovery or cache trimming takes.
extension StatementStore {
    /// Deletes record `id` with its photos and lines; false when there is no such record.
    @discardableResult
    public func deleteRecord(id: Int64) throws(StorageError) -> Bool {
        let freed: [String]? = try writing { session throws(StorageError) in
            let photos = try photos(ofRecord: id, session).map(\.storedName)
            let answered = try session.all("DELETE FROM capture WHERE id = \(id) RETURNING request_id") { row throws(StorageError) in
                try row.integer(0)
            }
            guard let request = answered.first else { return nil }
            if let request {
                let pendingAgain: StoreSQL = """
                    UPDATE request SET status = 'pending', done_at = NULL
                    WHERE id = \(request) AND status = 'done' AND NOT EXISTS (SELECT 1 FROM capture WHERE request_id = \(request))
                    """
                try session.execute(pendingAgain)
            }
            return try photoFilesFreed(by: photos, session)
        }
        guard let freed else { return false }
        removePhotoFiles(freed)
        return true
    }

    /// Clear all: deletes every record in one transaction, then the photo files. Inbox requests
    /// are kept, those the records answered pending again. How many records were deleted.
    @discardableResult
    public func deleteAllRecords() throws(StorageError) -> Int {
        let (count, freed) = try writing { session throws(StorageError) in
            let photos = try photoFilesBeforeDeletingAll(session)
            try session.execute(
                """
                UPDATE request SET status = 'pending', done_at = NULL
                WHERE status = 'done' AND id IN (SELECT request_id FROM capture WHERE request_id IS NOT NULL)
                """)
            return (try session.execute("DELETE FROM capture"), try photoFilesFreed(by: photos, session))
        }
        removePhotoFiles(freed)
        return count
    }
}
