import Foundation

/// Image formats tabshell accepts, recognised by their magic bytes (never by file name).
public enum ImageFormat: String, CaseIterable, Codable, Sendable, Hashable {
    case png, jpeg, gif, webp, bmp, heic

    /// "PNG", "JPEG"…, and "WebP" as its makers write it.
    public var title: String { self == .webp ? "WebP" : rawValue.uppercased() }
}

/// A photo copied into the capture's staging directory: on disk already, not yet in the database.
/// `storedName` is generated (a UUID plus extension); it never comes from user input.
public struct StagedPhoto: Equatable, Hashable, Codable, Sendable, Identifiable {
    public var storedName: String
    /// The file name the user chose, for display only.
    public var originalName: String
    public var format: ImageFormat
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var byteSize: Int64

    public var id: String { storedName }

    public init(storedName: String, originalName: String, format: ImageFormat, pixelWidth: Int, pixelHeight: Int, byteSize: Int64) {
        self.storedName = storedName
        self.originalName = originalName
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.byteSize = byteSize
    }
}
