import Domain
import Foundation
import GRDB
import Storage

/// A row of the `photo` table: one committed photo of a capture.
struct PhotoRecord: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "photo"

    var id: Int64?
    var captureId: Int64
    var position: Int
    var storedName: String
    var originalName: String
    var format: ImageFormat
    var pixelWidth: Int
    var pixelHeight: Int
    var byteSize: Int64

    enum Columns {
        static let captureId = Column(CodingKeys.captureId)
        static let position = Column(CodingKeys.position)
        static let storedName = Column(CodingKeys.storedName)
    }

    init(captureId: Int64, position: Int, photo: StagedPhoto) {
        self.id = nil
        self.captureId = captureId
        self.position = position
        self.storedName = photo.storedName
        self.originalName = photo.originalName
        self.format = photo.format
        self.pixelWidth = photo.pixelWidth
        self.pixelHeight = photo.pixelHeight
        self.byteSize = photo.byteSize
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
