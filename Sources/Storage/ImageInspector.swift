import Domain

/// Recognises the image formats tabshell accepts by their magic bytes, and reads their pixel
/// size from the header. Pure: it sees only the bytes it is given, never a file name.
///
/// Checksums (PNG CRCs) are not verified; a header that is cut short or contradicts its own
/// format is refused.
public enum ImageInspector {
    /// How many leading bytes of a file are enough for ``inspect(header:)``: 64 KiB.
    public static let headerLength = 64 * 1024

    /// The format and pixel size of the image whose first bytes are `header`, or nil when those
    /// bytes are not the start of a PNG, JPEG, GIF, WebP, BMP or HEIC image.
    ///
    /// Pass up to ``headerLength`` bytes (the whole file when it is shorter). A JPEG whose first
    /// frame header lies beyond a full 64 KiB header, and a HEIC without an `ispe` box in it,
    /// are recognised with a size of 0 × 0.
    public static func inspect(header: [UInt8]) -> InspectedImage? {
        let bytes = header.prefix(headerLength)
        let reader = ByteReader(bytes: Array(bytes))
        return [png, jpeg, gif, webp, bmp, heic].lazy.compactMap { $0(reader) }.first
    }

    // MARK: - Formats

    /// Signature, then the IHDR chunk, which the specification puts first.
    private static func png(_ r: ByteReader) -> InspectedImage? {
        guard r.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        guard r.matches("IHDR", at: 12),
            let width = r.uint32BE(at: 16), let height = r.uint32BE(at: 20),
            width <= Int32.max, height <= Int32.max
        else { return nil }
        return InspectedImage(format: .png, pixelWidth: Int(width), pixelHeight: Int(height))
    }

    /// SOI, then marker segments until the first start-of-frame (SOF0…SOF15 but DHT, JPG, DAC).
    private static func jpeg(_ r: ByteReader) -> InspectedImage? {
        guard r.starts(with: [0xFF, 0xD8, 0xFF]) else { return nil }
        var offset = 2
        while true {
            guard let first = r.byte(at: offset) else { return runOff(r) }
            guard first == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker.
            var markerOffset = offset + 1
            while r.byte(at: markerOffset) == 0xFF { markerOffset += 1 }
            guard let marker = r.byte(at: markerOffset) else { return runOff(r) }
            offset = markerOffset + 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // Standalone markers without a length.
            case 0x00, 0xD8, 0xD9, 0xDA:
                return nil  // Stuffing, a second SOI, end of image or scan data before any frame.
            default:
                break
            }
            guard let length = r.uint16BE(at: offset) else { return runOff(r) }
            guard length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard let height = r.uint16BE(at: offset + 3), let width = r.uint16BE(at: offset + 5) else {
                    return runOff(r)
                }
                return InspectedImage(format: .jpeg, pixelWidth: width, pixelHeight: height)
            }
            offset += length
        }
    }

    /// A JPEG whose segments run past the bytes given: the frame is further on when the header
    /// was full length, and the file is cut short otherwise.
    private static func runOff(_ r: ByteReader) -> InspectedImage? {
        r.count >= headerLength ? InspectedImage(format: .jpeg, pixelWidth: 0, pixelHeight: 0) : nil
    }

    /// "GIF87a" or "GIF89a", then the logical screen size, little-endian.
    private static func gif(_ r: ByteReader) -> InspectedImage? {
        guard r.matches("GIF87a", at: 0) || r.matches("GIF89a", at: 0),
            let width = r.uint16LE(at: 6), let height = r.uint16LE(at: 8)
        else { return nil }
        return InspectedImage(format: .gif, pixelWidth: width, pixelHeight: height)
    }

    /// A RIFF "WEBP" container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended).
    private static func webp(_ r: ByteReader) -> InspectedImage? {
        guard r.matches("RIFF", at: 0), r.matches("WEBP", at: 8) else { return nil }
        if r.matches("VP8 ", at: 12) {
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard r.byte(at: 23) == 0x9D, r.byte(at: 24) == 0x01, r.byte(at: 25) == 0x2A,
                let width = r.uint16LE(at: 26), let height = r.uint16LE(at: 28)
            else { return nil }
            return InspectedImage(format: .webp, pixelWidth: width & 0x3FFF, pixelHeight: height & 0x3FFF)
        }
        if r.matches("VP8L", at: 12) {
            // Signature 0x2F, then width - 1 and height - 1 in 14 bits each.
            guard r.byte(at: 20) == 0x2F, let bits = r.uint32LE(at: 21) else { return nil }
            return InspectedImage(
                format: .webp, pixelWidth: Int(bits & 0x3FFF) + 1, pixelHeight: Int((bits >> 14) & 0x3FFF) + 1)
        }
        if r.matches("VP8X", at: 12) {
            // Flags (4 bytes), then canvas width - 1 and height - 1 in 24 bits each.
            guard let width = r.uint24LE(at: 24), let height = r.uint24LE(at: 27) else { return nil }
            return InspectedImage(format: .webp, pixelWidth: width + 1, pixelHeight: height + 1)
        }
        return nil
    }

    /// "BM", then a DIB header: BITMAPCOREHEADER (12 bytes, unsigned 16-bit sizes) or
    /// BITMAPINFOHEADER and its successors (signed 32-bit sizes; a negative height is top-down).
    private static func bmp(_ r: ByteReader) -> InspectedImage? {
        guard r.matches("BM", at: 0), let dibSize = r.uint32LE(at: 14) else { return nil }
        switch dibSize {
        case 12:
            guard let width = r.uint16LE(at: 18), let height = r.uint16LE(at: 20) else { return nil }
            return InspectedImage(format: .bmp, pixelWidth: width, pixelHeight: height)
        case 16, 40, 52, 56, 64, 108, 124:
            guard let rawWidth = r.uint32LE(at: 18), let rawHeight = r.uint32LE(at: 22) else { return nil }
            let width = Int(Int32(bitPattern: rawWidth)), height = Int(Int32(bitPattern: rawHeight))
            guard width >= 0 else { return nil }
            return InspectedImage(format: .bmp, pixelWidth: width, pixelHeight: abs(height))
        default:
            return nil
        }
    }

    /// An ISO-BMFF `ftyp` box with a HEIF brand; the size comes from the largest `ispe` box in
    /// the header (the primary image, not a tile or a thumbnail), 0 × 0 when there is none.
    private static func heic(_ r: ByteReader) -> InspectedImage? {
        guard r.matches("ftyp", at: 4), let boxSize = r.uint32BE(at: 0), boxSize >= 16,
            let major = r.string(at: 8, length: 4)
        else { return nil }
        let compatible = stride(from: 16, through: min(Int(boxSize), r.count) - 4, by: 4).compactMap { r.string(at: $0, length: 4) }
        let heifMajor: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
        let genericMajor: Set<String> = ["mif1", "msf1"]
        // AVIF files also use mif1/msf1; they say so in their compatible brands.
        guard heifMajor.contains(major) || (genericMajor.contains(major) && !compatible.contains("avif") && !compatible.contains("avis"))
        else { return nil }
        var best: (width: Int, height: Int) = (0, 0)
        var search = Int(boxSize)
        while let found = r.firstIndex(of: "ispe", from: search) {
            // FullBox: version and flags (4 bytes), then width and height, big-endian.
            if let width = r.uint32BE(at: found + 8), let height = r.uint32BE(at: found + 12),
                width <= Int32.max, height <= Int32.max, Int(width) * Int(height) > best.width * best.height
            {
                best = (Int(width), Int(height))
            }
            search = found + 4
        }
        return InspectedImage(format: .heic, pixelWidth: best.width, pixelHeight: best.height)
    }
}

/// Bounds-checked reads from a byte array: every accessor returns nil past the end.
private struct ByteReader {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func starts(with prefix: [UInt8]) -> Bool {
        bytes.starts(with: prefix)
    }

    func matches(_ ascii: String, at offset: Int) -> Bool {
        let expected = Array(ascii.utf8)
        guard offset >= 0, offset + expected.count <= bytes.count else { return false }
        return bytes[offset..<offset + expected.count].elementsEqual(expected)
    }

    func string(at offset: Int, length: Int) -> String? {
        guard offset >= 0, offset + length <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }

    /// The unsigned integer in the `count` bytes at `offset`, big- or little-endian.
    private func unsigned(at offset: Int, count: Int, bigEndian: Bool) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        let slice = bytes[offset..<offset + count]
        return (bigEndian ? Array(slice) : slice.reversed()).reduce(0) { $0 << 8 | Int($1) }
    }

    func uint16BE(at offset: Int) -> Int? { unsigned(at: offset, count: 2, bigEndian: true) }
    func uint16LE(at offset: Int) -> Int? { unsigned(at: offset, count: 2, bigEndian: false) }
    func uint24LE(at offset: Int) -> Int? { unsigned(at: offset, count: 3, bigEndian: false) }
    func uint32BE(at offset: Int) -> UInt32? { unsigned(at: offset, count: 4, bigEndian: true).map(UInt32.init) }
    func uint32LE(at offset: Int) -> UInt32? { unsigned(at: offset, count: 4, bigEndian: false).map(UInt32.init) }

    /// The offset of the first occurrence of `ascii` at or after `start`.
    func firstIndex(of ascii: String, from start: Int) -> Int? {
        guard start >= 0, start <= bytes.count else { return nil }
        return bytes[start...].firstRange(of: Array(ascii.utf8))?.lowerBound
    }
}
