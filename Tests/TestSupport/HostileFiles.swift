import Foundation

/// Broken and hostile image files, written byte by byte.
public enum HostileFiles {
    /// The first `fraction` of a file's bytes.
    public static func truncated(_ file: URL, keeping fraction: Double) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: file))
        return Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
    }

    /// A valid PNG signature and IHDR claiming `width` × `height` pixels (8-bit RGB, or 16-bit
    /// RGBA interlaced when `deepInterlaced`), then a tiny IDAT and IEND: the header is real, the
    /// pixels are not there.
    public static func pngClaiming(width: UInt32, height: UInt32, deepInterlaced: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(width) + bigEndian(height)
        // Bit depth, colour type (2 truecolour, 6 with alpha), deflate, adaptive filter, interlace.
        header += deepInterlaced ? [16, 6, 0, 0, 1] : [8, 2, 0, 0, 0]
        bytes += chunk("IHDR", header)
        bytes += chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        bytes += chunk("IEND", [])
        return bytes
    }

    /// An animated GIF of `frames` frames on a `width` × `height` canvas; each frame is 1×1, or
    /// the whole canvas when `fullFrames` (its data still one pixel: the decoder must fill the
    /// rest, in a buffer the size of the canvas).
    public static func animatedGIF(frames: Int, width: UInt16 = 1, height: UInt16 = 1, fullFrames: Bool = false) -> [UInt8] {
        var bytes = Array("GIF89a".utf8)
        bytes += littleEndian(width) + littleEndian(height)
        bytes += [0x80, 0x00, 0x00]  // global colour table of 2 entries
        bytes += [0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF]  // red, blue
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]  // 10 ms delay
            let frameSize = fullFrames ? littleEndian(width) + littleEndian(height) : [0x01, 0x00, 0x01, 0x00]
            bytes += [0x2C, 0x00, 0x00, 0x00, 0x00] + frameSize + [0x00]  // at 0,0, no local colours
            bytes += [0x02, 0x02, 0x44, 0x01, 0x00]  // LZW: clear, index 0, end
        }
        bytes.append(0x3B)
        return bytes
    }

    /// A JPEG with an ICC profile of `profileBytes` inserted after SOI, split into APP2 segments
    /// the way the ICC specification says (at most 65,519 bytes each, numbered, up to 255).
    public static func jpegWithICCProfile(_ jpeg: [UInt8], profileBytes: Int, seed: UInt64 = 7) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var profile = random.bytes(profileBytes)
        // A plausible profile header: its own size, 'acsp' signature, so parsers read further.
        let size = bigEndian(UInt32(profileBytes))
        profile.replaceSubrange(0..<4, with: size)
        profile.replaceSubrange(36..<40, with: Array("acsp".utf8))
        let chunkSize = 65_519
        let count = (profileBytes + chunkSize - 1) / chunkSize
        var segments: [UInt8] = []
        for index in 0..<count {
            let part = profile[index * chunkSize..<min(profileBytes, (index + 1) * chunkSize)]
            let payload = Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(count)] + part
            segments += [0xFF, 0xE2] + bigEndian(UInt16(payload.count + 2)) + payload
        }
        return Array(jpeg.prefix(2)) + segments + jpeg.dropFirst(2)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(CRC32.checksum(typeBytes + data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func littleEndian(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}

/// The CRC-32 PNG chunks carry (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
