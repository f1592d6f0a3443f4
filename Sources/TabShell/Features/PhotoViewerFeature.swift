import CaptureMode
import Domain
import Foundation

// MARK: - State

/// One photo the viewer can show: where its file is and the facts under it.
public struct ViewerPhoto: Equatable, Sendable {
    public var source: PhotoSource
    /// The file name the user chose, for display only.
    public var name: String
    public var format: ImageFormat
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var byteSize: Int64
}

extension ViewerPhoto {
    /// A staged photo of the capture on screen.
    public init(_ photo: StagedPhoto) {
        self.init(
            source: .staged(storedName: photo.storedName), name: photo.originalName, format: photo.format,
            pixelWidth: photo.pixelWidth, pixelHeight: photo.pixelHeight, byteSize: photo.byteSize
        )
    }

    /// A committed photo of a record; nil when storage did not say where its file is.
    public init?(_ photo: RecordPhoto) {
        guard !photo.storedName.isEmpty else { return nil }
        self.init(
            source: .stored(storedName: photo.storedName), name: photo.originalName, format: photo.format,
            pixelWidth: photo.pixelWidth, pixelHeight: photo.pixelHeight, byteSize: photo.byteSize
        )
    }
}

/// The full-screen photo viewer: the photos of one record (or one capture), the one showing,
/// and the record they belong to (nil for a capture's staged photos).
public struct PhotoViewerState: Equatable, Sendable {
    public var photos: [ViewerPhoto]
    /// The photo showing, always an index of `photos`.
    public private(set) var index: Int
    public var recordID: Int64?

    /// Nil when there is no photo to show.
    public init?(photos: [ViewerPhoto], index: Int, recordID: Int64? = nil) {
        guard !photos.isEmpty else { return nil }
        self.photos = photos
        self.index = min(max(0, index), photos.count - 1)
        self.recordID = recordID
    }

    public var current: ViewerPhoto { photos[index] }

    /// "2/3".
    public var position: String { "\(index + 1)/\(photos.count)" }

    /// ← and →: the previous or next photo, stopping at the first and the last.
    public mutating func step(by offset: Int) {
        index = min(max(0, index + offset), photos.count - 1)
    }
}
