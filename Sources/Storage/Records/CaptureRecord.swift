import CaptureMode
import Foundation
import GRDB

/// A row of the `capture` table: one committed capture.
struct CaptureRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "capture"

    /// The Inbox request this capture answers, if any (`capture.requestId`).
    static let answeredRequest = belongsTo(RequestRecord.self)

    var id: Int64?
    var kind: CaptureKind
    var barcode: String?
    var symbology: Symbology?
    var note: String?
    var requestId: Int64?
    var createdAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let createdAt = Column(CodingKeys.createdAt)
    }

    init(submission: CaptureSubmission, createdAt: Date) {
        self.id = nil
        self.kind = submission.kind
        self.barcode = submission.barcode?.value
        self.symbology = submission.barcode?.symbology
        self.note = submission.note
        self.requestId = submission.requestID
        self.createdAt = createdAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
