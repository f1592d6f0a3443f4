import Foundation

/// What a capture records. Adding a kind means adding a case here, its phases in
/// `CaptureState.phases(for:)`, and a row in `docs/architecture.md`.
public enum CaptureKind: String, CaseIterable, Codable, Sendable, Hashable {
    case barcode
    case photos
    case product
    case note
    /// Many scans in a row (stock-take, receiving), each counted; committed as one record.
    case batch

    /// "Barcode", "Photos"…: the raw value with a capital.
    public var title: String { rawValue.capitalized }

    /// One line for the kind picker.
    public var blurb: String {
        switch self {
        case .barcode: "Type or scan one EAN/UPC/GTIN code"
        case .photos: "Copy 1 or more image files from this host"
        case .product: "A barcode, then photos"
        case .note: "A few lines of text"
        case .batch: "Many scans in a row, counted (stock-take, receiving)"
        }
    }

    /// The kinds this build can capture end to end; the picker lists only these.
    public static let available: [CaptureKind] = [.barcode, .photos, .product, .note, .batch]

    /// The kinds an Inbox request may ask for (a batch is started on the spot, not asked for).
    public static let requestable: [CaptureKind] = [.barcode, .photos, .product, .note]

    public var isAvailable: Bool { Self.available.contains(self) }
}
