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

    /// 100 megapixels (12–50 are common in phones; a 200-megapixel photo is refused) and 384 MB
    /// of decoder memory on top of the app's own: enough for a 24-megapixel HEIC or a
    /// 48-megapixel progressive JPEG (see `estimatedDecodeBytes`). A caller on a small machine
    /// lowers it. The time a decode may take is the decoder's (`VipsPhotoDecoder.timeout`).
    public static let standard = PreviewLimits(maxPixels: 100_000_000, maxDecodeBytes: 384 << 20)

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

    /// The most memory decoding the first page can take, from what the decoders hold (checked
    /// against peak RSS with scripts/bench-preview). Baseline JPEG (shrunk on load),
    /// non-interlaced PNG and WebP (scaled while decoding) stream a few rows at a time. The
    /// others hold the whole image: a progressive JPEG its DCT coefficients (16 bits a sample,
    /// 4:4:4 at worst), an interlaced PNG its pixels, GIF an RGBA canvas, and libheif its
    /// planes and their RGB conversion (about 11 bytes a pixel measured for 8-bit HEIC).
    public static func estimatedDecodeBytes(_ header: PhotoHeader) -> Int {
        let size = header.storedSize
        let bands = max(1, header.bands), sampleBytes = max(1, header.bytesPerSample)
        switch header.loader {
        case "jpegload":
            return header.interlaced ? bytes(size, each: bands * 2) : bytes(PixelSize(width: size.width, height: 16), each: bands)
        case "pngload":
            return header.interlaced ? bytes(size, each: bands * sampleBytes) : bytes(PixelSize(width: size.width, height: 16), each: bands * sampleBytes)
        case "webpload":
            return bytes(PixelSize(width: size.width, height: 16), each: 4)
        case "gifload":
            return bytes(size, each: 4)
        case "heifload":
            return bytes(size, each: 12 * sampleBytes)
        default:
            return bytes(size, each: bands * sampleBytes)
        }
    }

    /// Pixels × bytes each, saturating instead of overflowing.
    private static func bytes(_ size: PixelSize, each: Int) -> Int {
        let (product, overflow) = size.pixelCount.multipliedReportingOverflow(by: each)
        return overflow ? Int.max : product
    }
}
