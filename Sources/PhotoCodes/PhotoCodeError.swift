import PhotoPreview

/// Why no codes could be looked for in a photo. Each case carries one sentence for the screen;
/// `detail` keeps the library's own words for the log. A photo with no code in it is not an
/// error: it gives an empty list.
public enum PhotoCodeError: Error, Hashable, Sendable {
    case missing
    case unreadable(detail: String)
    case empty
    case unsupportedFormat(detail: String)
    /// Refused from the header, before any pixel is decoded.
    case tooLarge(width: Int, height: Int)
    case truncated(detail: String)
    case damaged(detail: String)
    case timedOut
    /// libvips or zbar did not start.
    case readerUnavailable(detail: String)

    /// One sentence for the screen.
    public var sentence: String {
        switch self {
        case .missing: "The photo file is missing."
        case .unreadable: "The photo file cannot be read."
        case .empty: "This photo is empty: the file has no bytes."
        case .unsupportedFormat: "This file is not a photo tabshell can read codes from."
        case .tooLarge(let width, let height): "Too large to read codes from: \(width) × \(height) pixels."
        case .truncated: "This photo is damaged: it ends early."
        case .damaged: "This photo is damaged: its data cannot be decoded."
        case .timedOut: "This photo took too long to decode."
        case .readerUnavailable: "Codes cannot be read from photos: the image or barcode library did not start."
        }
    }

    /// The underlying library's message, for the log (nil when the sentence says it all).
    public var detail: String? {
        switch self {
        case .unreadable(let detail), .unsupportedFormat(let detail), .truncated(let detail),
            .damaged(let detail), .readerUnavailable(let detail):
            detail
        case .missing, .empty, .tooLarge, .timedOut:
            nil
        }
    }

    /// The same failure met while reading the header with PhotoPreview's decoder.
    init(_ error: PreviewError) {
        switch error {
        case .missing: self = .missing
        case .unreadable(let detail): self = .unreadable(detail: detail)
        case .empty: self = .empty
        case .unsupportedFormat(let detail): self = .unsupportedFormat(detail: detail)
        case .tooLarge(let width, let height): self = .tooLarge(width: width, height: height)
        case .truncated(let detail): self = .truncated(detail: detail)
        case .damaged(let detail): self = .damaged(detail: detail)
        case .timedOut: self = .timedOut
        case .decoderUnavailable(let detail): self = .readerUnavailable(detail: detail)
        // Reading a header neither renders nor is cancelled; kept total all the same.
        case .renderFailed, .cancelled: self = .damaged(detail: error.sentence)
        }
    }
}
