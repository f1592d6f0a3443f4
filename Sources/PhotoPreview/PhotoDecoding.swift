import Foundation

/// Reads photos: the header first (cheap, no pixels), then pixels shrunk to a box. The pipeline
/// checks the header against `PreviewLimits` between the two calls. Implementations must be safe
/// to call from any thread.
public protocol PhotoDecoding: Sendable {
    func readHeader(of file: URL) throws(PreviewError) -> PhotoHeader
    /// The first page, upright, shrunk (not enlarged) to fit `box` with its proportions kept.
    func decode(_ file: URL, fitting box: PixelSize) throws(PreviewError) -> DecodedImage
}
