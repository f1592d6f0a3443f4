import CImageStack
import Foundation
import PhotoPreview

/// Decodes a photo to grey with libvips' thumbnailer, through CImageStack: the same loaders
/// (JPEG, PNG, WebP, GIF, HEIF only), shrink-on-load, EXIF turn, truncation rule and deadline
/// as previews.
enum GreyDecoder {
    static func decode(_ file: URL, fittingSide side: Int, timeout: Duration) throws(PhotoCodeError) -> GreyImage {
        guard side > 0, side <= Int(Int32.max) else {
            throw .photo(.damaged(detail: "the scan size \(side) is empty or too large"))
        }
        var image = tsv_grey()
        defer { tsv_grey_free(&image) }
        var message = MessageBuffer()
        let status = message.withBuffer { buffer, capacity in
            tsv_thumbnail_grey(file.path, Int32(side), Int32(side), milliseconds(timeout), &image, buffer, capacity)
        }
        guard status == TSV_OK.rawValue, let pixels = image.pixels else {
            throw .photo(VipsFailure.error(status: status, message: message.text, file: file))
        }
        let bytes = Array(UnsafeBufferPointer(start: pixels, count: image.length))
        guard let grey = GreyImage(width: Int(image.width), height: Int(image.height), pixels: bytes) else {
            throw .photo(.damaged(detail: "the decoder returned \(image.length) bytes for \(image.width)x\(image.height)"))
        }
        return grey
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return Int32(clamping: min(seconds, 86_400) * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
