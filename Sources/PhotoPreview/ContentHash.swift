import Crypto
import Foundation

/// SHA-256 of a file's bytes, as 64 lowercase hex digits: the name of a photo's previews in the
/// cache. Computed with swift-crypto (in the binary already, for PostgreSQL and SSH), not with
/// GLib, so finding a cached preview loads none of the image stack; streamed in 1 MiB reads so
/// a large photo costs no memory.
public enum ContentHash {
    public static func sha256(of file: URL) throws(PreviewError) -> String {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { throw .missing }
            throw .unreadable(detail: "\(error)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw .unreadable(detail: "\(error)")
            }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The hash in canonical form, or nil when it is not 64 hex digits (a caller's stored value
    /// becomes part of a file name, so nothing else is let through).
    public static func normalized(_ hash: String) -> String? {
        let lowered = hash.lowercased()
        guard lowered.utf8.count == 64, lowered.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return nil
        }
        return lowered
    }
}
