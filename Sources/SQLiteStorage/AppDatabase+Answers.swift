import Domain
import Foundation
import GRDB
import Storage

extension AppDatabase {
    /// The request with this id, or nil when there is none.
    public func request(id: Int64) throws(StorageError) -> InboxRequest? {
        try read { db in
            try RequestRecord.fetchOne(db, sql: "SELECT * FROM request WHERE id = ?", arguments: [id])?.inboxRequest
        }
    }

    /// The newest record that answers the request `id`, or nil when none does.
    public func answerID(toRequest id: Int64) throws(StorageError) -> Int64? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM capture WHERE requestId = ? ORDER BY id DESC LIMIT 1", arguments: [id])
        }
    }
}
