import CaptureMode
import Foundation
import GRDB
import TabShell

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
        return InboxRequest(id: id, title: title, body: body, kind: kind, status: status, createdAt: createdAt)
    }
}

extension DerivableRequest<RequestRecord> {
    /// Pending requests first, then done ones; newest first within each group.
    func inboxOrder() -> Self {
        order(
            RequestRecord.Columns.status == RequestStatus.done.rawValue,
            RequestRecord.Columns.createdAt.desc,
            RequestRecord.Columns.id.desc
        )
    }

    /// Requests still waiting for a capture.
    func pending() -> Self {
        filter(RequestRecord.Columns.status == RequestStatus.pending.rawValue)
    }
}
