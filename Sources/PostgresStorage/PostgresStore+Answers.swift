import Domain
import Foundation
import PostgresNIO
import Storage

extension PostgresStore {
    /// The request with this id, or nil when there is none.
    public func request(id: Int64) throws(StorageError) -> InboxRequest? {
        try read { session throws(StorageError) in
            let query: PostgresQuery =
                "SELECT id, title, body, kind, status, created_at, done_at, created_by, requester FROM request WHERE id = \(id)"
            guard let row = try session.rows(query).first else { return nil }
            return try PostgresRows.request(row, location)
        }
    }

    /// The newest record that answers the request `id`, or nil when none does.
    public func answerID(toRequest id: Int64) throws(StorageError) -> Int64? {
        try read { session throws(StorageError) in
            try session.value("SELECT id FROM capture WHERE request_id = \(id) ORDER BY id DESC LIMIT 1", as: Int64.self)
        }
    }
}
