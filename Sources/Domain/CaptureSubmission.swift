import Foundation

/// The Inbox request a capture answers.
public struct CaptureRequestLink: Codable, Equatable, Sendable {
    public var id: Int64
    public var title: String
    public var kind: CaptureKind

    public init(id: Int64, title: String, kind: CaptureKind) {
        self.id = id
        self.title = title
        self.kind = kind
    }
}

/// What Done hands to storage: everything the capture collected.
public struct CaptureSubmission: Equatable, Sendable {
    public var kind: CaptureKind
    public var barcode: Barcode?
    public var note: String?
    public var requestID: Int64?
    /// Staged photos in the order they were added; empty for kinds without photos.
    public var photos: [StagedPhoto]
    /// A batch's lines, in scan order; empty for other kinds.
    public var lines: [BatchLine]
    /// Where the code came from: a scanner or a person (told by keystroke timing), a paste.
    public var codeSource: CodeSource?
    /// The catalog's product for the code, as the capture showed it (storage looks it up again
    /// when it commits, so the record keeps what the catalog says then).
    public var product: Product?

    public init(
        kind: CaptureKind, barcode: Barcode? = nil, note: String? = nil, requestID: Int64? = nil, photos: [StagedPhoto] = [],
        lines: [BatchLine] = [], codeSource: CodeSource? = nil, product: Product? = nil
    ) {
        self.product = product
        self.kind = kind
        self.barcode = barcode
        self.note = note
        self.requestID = requestID
        self.photos = photos
        self.lines = lines
        self.codeSource = codeSource
    }
}
