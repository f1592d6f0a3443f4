import CaptureMode
import Foundation

/// A committed photo of a History record: a row of the `photo` table and where its file is.
public struct StoredPhoto: Equatable, Sendable, Identifiable {
    public var id: Int64
    public var captureID: Int64
    /// 0 for the first photo of the record.
    public var position: Int
    /// The file name in the media folder: a UUID and an extension, never user input.
    public var storedName: String
    /// The file name the user chose, for display only.
    public var originalName: String
    public var format: ImageFormat
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var byteSize: Int64
    /// The committed file.
    public var url: URL

    public init(
        id: Int64, captureID: Int64, position: Int, storedName: String, originalName: String,
        format: ImageFormat, pixelWidth: Int, pixelHeight: Int, byteSize: Int64, url: URL
    ) {
        self.id = id
        self.captureID = captureID
        self.position = position
        self.storedName = storedName
        self.originalName = originalName
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.byteSize = byteSize
        self.url = url
    }
}
