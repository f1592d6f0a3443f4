import Domain
import Foundation
import GRDB
import Storage

/// A row of the `capture` table: one committed capture.
struct CaptureRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "capture"

    var id: Int64?
    var kind: CaptureKind
    var barcode: String?
    var symbology: Symbology?
    var note: String?
    var requestId: Int64?
    var createdAt: Date
    /// The staging session (folder name) the capture was committed from, if any.
    var stagingId: String?
    /// Where the code came from (`scanner`, `person`, `paste`, `photo`), if known.
    var inputSource: String?
    /// Who captured it (`--as`, the serve session's person, or the Unix user); nil before v6.
    var capturedBy: String?
    /// The catalog's name and brand for its code when it was committed; nil when not in it.
    var productName: String?
    var productBrand: String?
    /// Its identity, kept by export and import (a new UUID for a new capture).
    var uid: String?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let createdAt = Column(CodingKeys.createdAt)
        static let stagingId = Column(CodingKeys.stagingId)
    }

    init(submission: CaptureSubmission, createdAt: Date, stagingId: String? = nil, capturedBy: String? = nil) {
        self.id = nil
        self.kind = submission.kind
        self.barcode = submission.barcode?.value
        self.symbology = submission.barcode?.symbology
        self.note = submission.note
        self.requestId = submission.requestID
        self.createdAt = createdAt
        self.stagingId = stagingId
        self.inputSource = submission.codeSource?.rawValue
        self.capturedBy = capturedBy
        self.uid = RecordIdentity.make()
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
