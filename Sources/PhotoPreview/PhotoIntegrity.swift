import Foundation

/// Whether a photo is damaged, as its preview would find: it stops before its format's end
/// marker (told from the file alone, no library needed), or its data cannot be decoded (told
/// by the decoder, when its library is there). Capture asks when a photo is staged, so a
/// damaged photo is refused then, whatever told it, rather than saved without a word.
public enum PhotoIntegrity {
    /// The damage found, `.truncated` or `.damaged`; nil when the photo decodes, or when it
    /// cannot be told (no decoder, too large to decode, too slow).
    public static func damage(
        of file: URL, decoder: any PhotoDecoding = VipsPhotoDecoder(), limits: PreviewLimits = .standard
    ) -> PreviewError? {
        if FileEnding.isCutShort(file) { return .truncated(detail: "the file stops before its format's end marker") }
        do throws(PreviewError) {
            _ = try PreviewPipeline(decoder: decoder, limits: limits).decode(file) { _ in PixelSize(width: 64, height: 64) }
            return nil
        } catch let error {
            switch error {
            case .truncated, .damaged: return error
            default: return nil
            }
        }
    }
}
