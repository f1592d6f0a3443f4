import Foundation

/// Whether a file that failed to decode stops before its format's end marker. Decoders word
/// "the data ran out" differently or not at all (libwebp says only "unable to parse image"),
/// so after a failure the file's own structure decides between "ends early" and "damaged".
/// The format is told by the first bytes, as the decoder itself does.
enum FileEnding {
    static func isCutShort(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        guard let length = try? handle.seekToEnd(), length > 0,
            let head = read(handle, at: 0, count: 12)
        else { return false }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            return !ends(handle, length: length, with: [0xFF, 0xD9])
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return !ends(handle, length: length, with: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        }
        if head.starts(with: Array("GIF8".utf8)) {
            return !ends(handle, length: length, with: [0x3B])
        }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            // "RIFF", the size of what follows (little-endian), "WEBP".
            let declared = head[4..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return declared + 8 > length
        }
        return false
    }

    private static func ends(_ handle: FileHandle, length: UInt64, with marker: [UInt8]) -> Bool {
        guard length >= UInt64(marker.count), let tail = read(handle, at: length - UInt64(marker.count), count: marker.count) else {
            return false
        }
        return tail == marker
    }

    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) -> [UInt8]? {
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count) else { return nil }
        return [UInt8](data)
    }
}
