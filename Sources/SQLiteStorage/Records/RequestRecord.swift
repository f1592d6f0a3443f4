import Domain
import Foundation
import GRDB
import Storage

/// A row of the `request` table: one Inbox request.
struct RequestRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "request"

    var id: Int64?
    var title: String
    var body: String
    var kind: CaptureKind
    var status: RequestStatus
    var createdAt: Date
    var doneAt: Date?
    /// Who added it (`inbox add`, `inbox import`); nil before v6.
    var createdBy: String?
    /// Who asked for it (`--from`, `from`): the person or agent the answer goes back to.
    var requester: String?
    /// Its identity, kept by export and import; the schema gives one when left nil.
    var uid: String?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let title = Column(CodingKeys.title)
        static let status = Column(CodingKeys.status)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The value the Inbox shows, or nil for a record that was never saved.
    var inboxRequest: InboxRequest? {
        guard let id else { return nil }
        return InboxRequest(
            id: id, title: title, body: body, kind: kind, status: status, createdAt: createdAt, requester: requester, doneAt: doneAt,
            createdBy: createdBy)
    }
}

// In an extension, so that the struct keeps the memberwise initializer Swift writes for it
// (`RequestRecord(title:body:kind:status:createdAt:)`, the optionals defaulting to nil).
extension RequestRecord {
    /// Reads the columns by name, without Codable's keyed containers: start-up reads up to
    /// 1,000 requests for the Inbox, and Codable decoding was ~19% of start-up (perf, 5,000
    /// requests). A NULL where the schema forbids one, or an unknown kind or status, is an error.
    init(row: Row) throws {
        guard let title: String = row["title"], let body: String = row["body"], let createdAt: Date = row["createdAt"],
            let kindName: String = row["kind"], let kind = CaptureKind(rawValue: kindName),
            let statusName: String = row["status"], let status = RequestStatus(rawValue: statusName)
        else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "A request row lacks its title, body, kind, status or date.")
        }
        self.init(
            id: row["id"], title: title, body: body, kind: kind, status: status, createdAt: createdAt, doneAt: row["doneAt"], createdBy: row["createdBy"],
            requester: row["requester"], uid: row["uid"])
    }
}
