/// What a photo may cost to preview. Checked against the header, before any pixel is decoded.
public struct PreviewLimits: Hashable, Sendable {
    /// Width × height of the first page.
    public var maxPixels: Int
    /// Memory the decoder may need at once (see `estimatedDecodeBytes`).
    public var maxDecodeBytes: Int

    public init(maxPixels: Int, maxDecodeBytes: Int) {
        self.maxPixels = maxPixels
        self.maxDecodeBytes = maxDecodeBytes
    }

    /// 100 megapixels (12–50 are common in phones; a 200-megapixel photo is refused) and 256 MB
    /// of decoder memory. The time a decode may take is the decoder's (`VipsPhotoDecoder.timeout`).
    public static let standard = PreviewLimits(maxPixels: 100_000_000, maxDecodeBytes: 256 << 20)

    /// Throws `.tooLarge` when the header asks for more than the limits allow.
    public func check(_ header: PhotoHeader) throws(PreviewError) {
        let size = header.displaySize
        if size.isEmpty {
            throw .damaged(detail: "the header gives a size of \(size)")
        }
        if size.pixelCount > maxPixels || Self.estimatedDecodeBytes(header) > maxDecodeBytes {
            throw .tooLarge(width: size.width, height: size.height)
        }
    }

    /// The most memory decoding the first page can take. Baseline JPEG (shrunk on load) and
    /// non-interlaced PNG and WebP stream a few rows at a time; the others hold the whole image:
    /// a progressive JPEG its coefficients (about one 16-bit value per sample after chroma
    /// subsampling), an interlaced PNG its pixels, GIF a full RGBA canvas, HEIF its planes.
    public static func estimatedDecodeBytes(_ header: PhotoHeader) -> Int {
        let size = header.storedSize
        let bands = max(1, header.bands), sampleBytes = max(1, header.bytesPerSample)
        let whole = size.pixelCount.multipliedReportingOverflow(by: bands * sampleBytes)
        let wholeImage = whole.overflow ? Int.max : whole.partialValue
        let rows = size.width.multipliedReportingOverflow(by: 16 * bands * sampleBytes)
        let streaming = rows.overflow ? Int.max : rows.partialValue
        switch header.loader {
        case "jpegload", "pngload":
            return header.interlaced ? wholeImage : streaming
        case "webpload":
            return streaming
        case "gifload":
            let canvas = size.pixelCount.multipliedReportingOverflow(by: 4)
            return canvas.overflow ? Int.max : canvas.partialValue
        default:
            return wholeImage
        }
    }
}
