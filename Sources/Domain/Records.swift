import Foundation

public enum RequestStatus: String, Codable, Sendable, CaseIterable {
    case pending, done
}

/// One Inbox request, as the Inbox tab shows it.
/// Codable: a presenter sends the rows on screen to its watchers (PresentedScreen).
public struct InboxRequest: Codable, Equatable, Sendable, Identifiable {
    public var id: Int64
    public var title: String
    public var body: String
    public var kind: CaptureKind
    public var status: RequestStatus
    public var createdAt: Date
    /// Who asked (`inbox add --from`): the person or agent the answer goes back to.
    public var requester: String?
    /// When a Done answered it.
    public var doneAt: Date?
    /// Who added it (`inbox add`, `inbox import`); nil for requests from before tabshell kept it.
    public var createdBy: String?

    public init(
        id: Int64, title: String, body: String, kind: CaptureKind, status: RequestStatus, createdAt: Date, requester: String? = nil,
        doneAt: Date? = nil, createdBy: String? = nil
    ) {
        self.doneAt = doneAt
        self.createdBy = createdBy
        self.id = id
        self.title = title
        self.body = body
        self.kind = kind
        self.status = status
        self.createdAt = createdAt
        self.requester = requester
    }
}

/// One History line: a committed capture with what the list shows of it.
public struct HistoryRow: Codable, Equatable, Sendable, Identifiable {
    public var id: Int64
    public var kind: CaptureKind
    public var barcode: Barcode?
    public var note: String?
    public var requestID: Int64?
    public var requestTitle: String?
    public var createdAt: Date
    /// Who captured it; nil for records from before tabshell kept it.
    public var capturedBy: String?
    /// Who asked for it: the requester of the request it answers.
    public var requester: String?
    /// The catalog's product for its code when it was committed (name and brand).
    public var product: Product?
    /// How many photos the record holds, and the first one's name, for the list's summary.
    public var photoCount: Int
    public var firstPhotoName: String?
    /// A batch's distinct codes and its scans (repeats included).
    public var batchCodes: Int
    public var batchScans: Int
    /// What deleting this record does to the request it answered; nil when it answers none, or
    /// when the store did not say.
    public var requestAfterDeletion: RequestAfterDeletion?

    public init(
        id: Int64, kind: CaptureKind, barcode: Barcode?, note: String?,
        requestID: Int64?, requestTitle: String?, createdAt: Date, capturedBy: String? = nil, requester: String? = nil,
        product: Product? = nil, photoCount: Int = 0, firstPhotoName: String? = nil, batchCodes: Int = 0, batchScans: Int = 0,
        requestAfterDeletion: RequestAfterDeletion? = nil
    ) {
        self.batchCodes = batchCodes
        self.batchScans = batchScans
        self.requestAfterDeletion = requestAfterDeletion
        self.id = id
        self.kind = kind
        self.barcode = barcode
        self.note = note
        self.requestID = requestID
        self.requestTitle = requestTitle
        self.createdAt = createdAt
        self.capturedBy = capturedBy
        self.requester = requester
        self.product = product
        self.photoCount = photoCount
        self.firstPhotoName = firstPhotoName
    }

    /// One-line summary for lists: the code, else the note's first line, else the photos
    /// ("shelf.png + 2 more"); a Product whose barcode was skipped says so.
    public var summary: String {
        if let barcode {
            // With the catalog's name when it has one: "Nutella · Ferrero · 4006381333931".
            if let product { return "\(product.name)\(product.brand.map { " \u{00B7} " + $0 } ?? "") \u{00B7} \(barcode.value)" }
            return "\(barcode.value) (\(barcode.symbology.title))"
        }
        if let note, let line = note.split(separator: "\n", omittingEmptySubsequences: true).first { return String(line) }
        if kind == .batch { return "\(Count.noun(batchCodes, "code")), \(Count.noun(batchScans, "scan"))" }
        let photos = photoSummary
        if kind == .product { return photos.isEmpty ? "No barcode" : "No barcode \u{00B7} " + photos }
        return photos
    }

    /// "shelf.png", "shelf.png + 2 more", "3 photos", or "" without photos.
    public var photoSummary: String {
        guard photoCount > 0 else { return "" }
        guard let name = firstPhotoName, !name.isEmpty else { return Count.noun(photoCount, "photo") }
        return photoCount == 1 ? name : "\(name) + \(photoCount - 1) more"
    }
}

/// A page of History: `rows` are the records at absolute positions `start ..< start + rows.count`
/// in the order of `mode` (newest first, or grouped and newest first within each group), and
/// `totalCount` is the number of records at the time of the read.
public struct HistoryPage: Equatable, Sendable {
    public var start: Int
    public var rows: [HistoryRow]
    public var totalCount: Int
    /// The order the rows are in; a page read for another mode than the one showing is stale.
    public var mode: HistoryBrowseMode
    /// More than one person has captured records: History shows who captured each.
    public var hasSeveralPeople: Bool

    public init(start: Int, rows: [HistoryRow], totalCount: Int, mode: HistoryBrowseMode = .all, hasSeveralPeople: Bool = false) {
        self.start = start
        self.rows = rows
        self.totalCount = totalCount
        self.mode = mode
        self.hasSeveralPeople = hasSeveralPeople
    }
}

/// What History asks storage for: `count` rows from position `start`, in the order of `mode`.
///
/// `anchor` is a record History already shows and its position: storage reads the page by
/// walking the mode's index from the nearest known place (the top, the bottom or the anchor),
/// so moving next to the loaded rows costs the same at ten records as at a million.
public struct HistoryPageRequest: Equatable, Sendable {
    public var start: Int
    public var count: Int
    public var mode: HistoryBrowseMode
    public var anchor: HistoryAnchor?

    public init(start: Int, count: Int, mode: HistoryBrowseMode = .all, anchor: HistoryAnchor? = nil) {
        self.start = start
        self.count = count
        self.mode = mode
        self.anchor = anchor
    }
}

/// A record known to be at `position` in some browse mode's order: where a keyset read can
/// start instead of counting rows from the top.
public struct HistoryAnchor: Equatable, Sendable {
    public var position: Int
    public var recordID: Int64

    public init(position: Int, recordID: Int64) {
        self.position = position
        self.recordID = recordID
    }
}

/// A committed photo of a record, with the facts the detail shows.
public struct RecordPhoto: Codable, Equatable, Sendable, Identifiable {
    public var id: Int64
    /// 0 for the first photo of the record.
    public var position: Int
    /// The file name the user chose, for display only.
    public var originalName: String
    public var format: ImageFormat
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var byteSize: Int64
    /// The file's name in the media folder (a UUID and an extension storage generated): what
    /// a preview of the photo asks for. Empty when not known, and then nothing is previewed.
    public var storedName: String

    public init(
        id: Int64, position: Int, originalName: String, format: ImageFormat,
        pixelWidth: Int, pixelHeight: Int, byteSize: Int64, storedName: String = ""
    ) {
        self.id = id
        self.storedName = storedName
        self.position = position
        self.originalName = originalName
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.byteSize = byteSize
    }
}

/// Everything a record's detail shows: the record as History lists it, and its photos in order.
public struct RecordDetail: Equatable, Sendable {
    public var record: HistoryRow
    public var photos: [RecordPhoto]
    /// A batch's lines in scan order; empty for other kinds.
    public var lines: [BatchLine]

    public init(record: HistoryRow, photos: [RecordPhoto], lines: [BatchLine] = []) {
        self.record = record
        self.photos = photos
        self.lines = lines
    }
}

/// What the Inbox shows: requests (pending first, newest first) and the pending count for the badge.
public struct InboxSnapshot: Equatable, Sendable {
    /// How many requests one read of the Inbox brings (the first, and each further page).
    public static let pageSize = 200
    public var requests: [InboxRequest]
    public var pendingCount: Int
    /// More requests follow the ones read (the Inbox reads a page at a time).
    public var hasMore: Bool

    public init(requests: [InboxRequest], pendingCount: Int, hasMore: Bool = false) {
        self.requests = requests
        self.pendingCount = pendingCount
        self.hasMore = hasMore
    }
}
