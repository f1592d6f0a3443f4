/// Why a photo has no preview. Each case carries one sentence for the placeholder drawn where
/// the photo would be; `detail` keeps the library's own words for the log.
public enum PreviewError: Error, Hashable, Sendable {
    case missing
    case unreadable(detail: String)
    case empty
    case unsupportedFormat(detail: String)
    /// Refused from the header, before any pixel is decoded.
    case tooLarge(width: Int, height: Int)
    case truncated(detail: String)
    case damaged(detail: String)
    case timedOut
    case decoderUnavailable(detail: String)
    /// libvips or libchafa could not be loaded (they are opened on first use).
    case libraryMissing(ImageLibraryMissing)
    case renderFailed(detail: String)
    case cancelled

    /// One sentence for the placeholder.
    public var sentence: String {
        switch self {
        case .missing: "The photo file is missing."
        case .unreadable: "The photo file cannot be read."
        case .empty: "This photo is empty: the file has no bytes."
        case .unsupportedFormat: "This file is not a photo tabshell can preview."
        case .tooLarge(let width, let height): "Too large to preview: \(width) × \(height) pixels."
        case .truncated: "This photo is damaged: it ends early."
        case .damaged: "This photo is damaged: its data cannot be decoded."
        case .timedOut: "This photo took too long to decode."
        case .decoderUnavailable: "Photo previews are unavailable: the image library did not start."
        case .libraryMissing(let missing):
            "Photo previews need \(missing.library.name) (package \(missing.library.package))."
        case .renderFailed: "The preview could not be drawn."
        case .cancelled: "The preview was cancelled."
        }
    }

    /// The underlying library's message, for the log (nil when the sentence says it all).
    public var detail: String? {
        switch self {
        case .unreadable(let detail), .unsupportedFormat(let detail), .truncated(let detail),
            .damaged(let detail), .decoderUnavailable(let detail), .renderFailed(let detail):
            detail
        case .libraryMissing(let missing):
            missing.detail
        case .missing, .empty, .tooLarge, .timedOut, .cancelled:
            nil
        }
    }
}
