import CaptureMode
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small image files built byte by byte: just enough header for the inspector (checksums are
/// zero), followed by `padding` filler bytes so copies can span several chunks.
enum TestImages {
    static func png(width: UInt32, height: UInt32, padding: Int = 32) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += be32(13) + ascii("IHDR") + be32(width) + be32(height) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
        bytes += be32(0) + ascii("IEND") + [0xAE, 0x42, 0x60, 0x82]
        return bytes + filler(padding)
    }

    /// SOI, a JFIF APP0 segment, an optional APPn segment of `appBytes` bytes, then SOF0.
    static func jpeg(width: UInt16, height: UInt16, appBytes: Int = 0, sofMarker: UInt8 = 0xC0, padding: Int = 32) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0] + be16(16) + ascii("JFIF") + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        var remaining = appBytes
        while remaining > 0 {
            let chunk = min(remaining, 65_533)
            bytes += [0xFF, 0xE1] + be16(UInt16(chunk + 2)) + [UInt8](repeating: 0x41, count: chunk)
            remaining -= chunk
        }
        bytes += [0xFF, sofMarker] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xDA] + be16(12) + [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]
        return bytes + filler(padding) + [0xFF, 0xD9]
    }

    static func gif(width: UInt16, height: UInt16, padding: Int = 32) -> [UInt8] {
        ascii("GIF89a") + le16(width) + le16(height) + [0, 0, 0] + filler(padding) + [0x3B]
    }

    /// A BITMAPINFOHEADER bitmap; a negative `height` is a top-down bitmap.
    static func bmp(width: Int32, height: Int32, padding: Int = 32) -> [UInt8] {
        var bytes = ascii("BM") + le32(UInt32(54 + padding)) + [0, 0, 0, 0] + le32(54)
        bytes += le32(40) + le32(UInt32(bitPattern: width)) + le32(UInt32(bitPattern: height))
        bytes += le16(1) + le16(24) + le32(0) + le32(UInt32(padding)) + le32(2835) + le32(2835) + le32(0) + le32(0)
        return bytes + filler(padding)
    }

    /// A BITMAPCOREHEADER (OS/2) bitmap with 16-bit sizes.
    static func bmpCore(width: UInt16, height: UInt16) -> [UInt8] {
        ascii("BM") + le32(26) + [0, 0, 0, 0] + le32(26) + le32(12) + le16(width) + le16(height) + le16(1) + le16(24)
    }

    static func webpLossy(width: UInt16, height: UInt16) -> [UInt8] {
        let payload = [0x10, 0x02, 0x00] + [0x9D, 0x01, 0x2A] + le16(width) + le16(height) + filler(16)
        return riff(chunk: "VP8 ", payload)
    }

    static func webpLossless(width: UInt32, height: UInt32) -> [UInt8] {
        let bits = (width - 1) | ((height - 1) << 14)
        return riff(chunk: "VP8L", [0x2F] + le32(bits) + filler(16))
    }

    static func webpExtended(width: UInt32, height: UInt32) -> [UInt8] {
        let payload = [0x10, 0, 0, 0] + Array(le32(width - 1).prefix(3)) + Array(le32(height - 1).prefix(3))
        return riff(chunk: "VP8X", payload + filler(16))
    }

    /// An `ftyp` box with `brand` and `compatible` brands, then a `meta` box holding one `ispe`
    /// box per size.
    static func heic(brand: String = "heic", compatible: [String] = ["mif1", "heic"], sizes: [(UInt32, UInt32)]) -> [UInt8] {
        var ftyp = ascii("ftyp") + ascii(brand) + be32(0)
        for brand in compatible { ftyp += ascii(brand) }
        var bytes = be32(UInt32(ftyp.count + 4)) + ftyp
        var meta: [UInt8] = [0, 0, 0, 0]
        for (width, height) in sizes {
            meta += be32(20) + ascii("ispe") + [0, 0, 0, 0] + be32(width) + be32(height)
        }
        bytes += be32(UInt32(meta.count + 8)) + ascii("meta") + meta
        return bytes + filler(64)
    }

    // MARK: - Files

    /// Writes `bytes` to `name` in `directory` and returns the path.
    @discardableResult
    static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    // MARK: - Bytes

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    static func le32(_ value: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8((value >> $0) & 0xFF) } }

    /// Deterministic filler: a repeating ramp that contains no marker-like 0xFF bytes.
    static func filler(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }

    private static func riff(chunk: String, _ payload: [UInt8]) -> [UInt8] {
        let body = ascii("WEBP") + ascii(chunk) + le32(UInt32(payload.count)) + payload
        return ascii("RIFF") + le32(UInt32(body.count)) + body
    }
}

/// The names in `directory`, sorted; empty when it does not exist.
func listing(_ directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// True when something (a file, a folder, a link) is at `path`.
func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}
