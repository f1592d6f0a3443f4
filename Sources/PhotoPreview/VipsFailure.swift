import CImageStack
import Foundation

/// Turns the shim's status and vips' message into the error a user sees. vips has no error
/// codes, only text: a message naming an early end of data is a truncated file, and so is a
/// failure on a file that stops before its format's end marker (vips' text is one for the whole
/// process, so another thread's decode may have taken it); anything else from a loader is damage.
public enum VipsFailure {
    public static func error(status: Int32, message: String, file: URL? = nil) -> PreviewError {
        switch status {
        case TSV_UNKNOWN_FORMAT.rawValue: return .unsupportedFormat(detail: message)
        case TSV_TIMED_OUT.rawValue: return .timedOut
        case TSV_NOT_STARTED.rawValue: return .decoderUnavailable(detail: message)
        case TSV_LIBRARY_MISSING.rawValue: return .libraryMissing(ImageLibraryMissing(library: .vips, detail: message))
        default: break
        }
        let lowered = message.lowercased()
        if truncationWords.contains(where: lowered.contains) || file.map(FileEnding.isCutShort) == true {
            return .truncated(detail: message)
        }
        return .damaged(detail: message)
    }

    /// How libjpeg, libpng, libwebp, libnsgif and libheif word "the data stopped early".
    private static let truncationWords = [
        "premature end", "truncated", "unexpected end", "end of file", "not enough", "too short",
        "out of data", "insufficient", "read error", "end of stream",
    ]
}
