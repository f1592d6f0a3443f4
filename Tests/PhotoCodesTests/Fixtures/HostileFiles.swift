import Foundation

/// Broken and hostile image files, written byte by byte.
enum HostileFiles {
    /// The first `fraction` of a file's bytes.
    static func truncated(_ file: URL, keeping fraction: Double) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: file))
        return Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
    }

    /// A valid PNG signature and IHDR claiming `width` × `height` 8-bit RGB pixels, then a tiny
    /// IDAT and IEND: the header is real, the pixels are not there.
    static func pngClaiming(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0])
        bytes += chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        bytes += chunk("IEND", [])
        return bytes
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// PNG's CRC-32 (polynomial 0xEDB88320, reflected).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
