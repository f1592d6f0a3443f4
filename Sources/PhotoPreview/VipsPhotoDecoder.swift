import CImageStack
import Foundation

/// Decodes with libvips' thumbnailer (shrink-on-load for JPEG, WebP and HEIF), through the
/// C wrappers in CImageStack (which opens libvips on first use). Only the JPEG, PNG, WebP, GIF and HEIF loaders are allowed.
public struct VipsPhotoDecoder: PhotoDecoding {
    /// Decoding past this is stopped and reported as `.timedOut`; zero or less means no deadline.
    public var timeout: Duration

    /// Ten seconds: far more than any photo within `PreviewLimits.standard` needs.
    public init(timeout: Duration = .seconds(10)) {
        self.timeout = timeout
    }

    public func readHeader(of file: URL) throws(PreviewError) -> PhotoHeader {
        var header = tsv_header()
        var message = MessageBuffer()
        let status = message.withBuffer { buffer, capacity in
            tsv_read_header(file.path, &header, buffer, capacity)
        }
        guard status == TSV_OK.rawValue else {
            throw VipsFailure.error(status: status, message: message.text, file: file)
        }
        let loader = withUnsafeBytes(of: header.loader) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return PhotoHeader(
            storedSize: PixelSize(width: Int(header.width), height: Int(header.height)),
            bands: Int(header.bands),
            bytesPerSample: Int(header.bytes_per_sample),
            pages: Int(header.pages),
            interlaced: header.interlaced != 0,
            orientationSwaps: header.orientation_swaps != 0,
            iccProfileBytes: Int(header.icc_profile_bytes),
            loader: loader
        )
    }

    public func decode(_ file: URL, fitting box: PixelSize) throws(PreviewError) -> DecodedImage {
        guard !box.isEmpty, box.width <= Int(Int32.max), box.height <= Int(Int32.max) else {
            throw .renderFailed(detail: "the target size \(box) is empty or too large")
        }
        var image = tsv_rgba()
        defer { tsv_rgba_free(&image) }
        var message = MessageBuffer()
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds < 0 ? 0 : Int32(clamping: min(seconds, 86_400) * 1000 + attoseconds / 1_000_000_000_000_000)
        let status = message.withBuffer { buffer, capacity in
            tsv_thumbnail_rgba(file.path, Int32(box.width), Int32(box.height), milliseconds, &image, buffer, capacity)
        }
        guard status == TSV_OK.rawValue, let pixels = image.pixels else {
            throw VipsFailure.error(status: status, message: message.text, file: file)
        }
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        let rgba = Array(UnsafeBufferPointer(start: pixels, count: image.length))
        guard let decoded = DecodedImage(size: size, rgba: rgba) else {
            throw .damaged(detail: "the decoder returned \(image.length) bytes for \(size)")
        }
        return decoded
    }
}
