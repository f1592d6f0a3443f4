import Domain
import Foundation
import PostgresNIO
import Storage

/// The PostgreSQL engine's own reads of records (their photos' content lives in this schema
/// only), and the decoding of their rows into the app's values. A row that cannot be read is
/// one sentence, never a crash.
enum PostgresRows {
    // MARK: - Records

    /// A photo's columns for ``photo(_:from:captureID:_:)``, from `capture_photo` joined to
    /// its content.
    static let photoColumns = SQLFragment(
        """
        capture_photo.position, capture_photo.original_name, encode(capture_photo.sha256, 'hex'), photo_content.format,
               photo_content.pixel_width, photo_content.pixel_height, photo_content.byte_size
        """)

    /// The tables ``photoColumns`` reads.
    static let photoTables = SQLFragment("FROM capture_photo JOIN photo_content ON photo_content.sha256 = capture_photo.sha256")

    /// A photo of record `captureID` from ``photoColumns``, starting at column `first`.
    static func photo(_ row: any SQLRow, from first: Int = 0, captureID: Int64, _ location: PostgresLocation) throws(StorageError)
        -> RecordPhoto
    {
        guard let position = try row.integer(first), let originalName = try row.text(first + 1), let hash = try row.text(first + 2),
            let format = try row.text(first + 3).flatMap(ImageFormat.init(rawValue:)), let width = try row.integer(first + 4),
            let height = try row.integer(first + 5), let bytes = try row.integer(first + 6)
        else { throw unreadable("a photo", location) }
        return RecordPhoto(
            // Unique per record and position (a photo shared by records has one content row).
            id: captureID &* 1000 &+ position, position: Int(position), originalName: originalName, format: format,
            pixelWidth: Int(width), pixelHeight: Int(height), byteSize: bytes, storedName: PhotoCache.storedName(hash: hash, format: format))
    }

    static func unreadable(_ what: String, _ location: PostgresLocation) -> StorageError {
        .sql("PostgreSQL at \(location.server) holds \(what) tabshell cannot read.")
    }
}
