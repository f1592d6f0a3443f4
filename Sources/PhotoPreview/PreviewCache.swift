import Domain
import Foundation

/// Previews on disk, one file per `PreviewKey`, in a folder the caller owns (such as
/// ~/.cache/tabshell/previews). Files are written whole under a temporary name and renamed into
/// place, so a reader (another tabshell included) never sees half a file. When the folder grows
/// past `byteLimit`, the least recently used previews go. Every failure is a miss, never an
/// error: the preview is simply made again.
public struct PreviewCache: Sendable {
    public let directory: URL
    public let byteLimit: Int

    public init(directory: URL, byteLimit: Int = 64 << 20) {
        self.directory = directory
        self.byteLimit = max(0, byteLimit)
    }

    private static let suffix = ".preview"

    /// The stored preview, if there is a readable one. A hit counts as a use for eviction; a
    /// file that does not decode is removed.
    public func image(for key: PreviewKey) -> PreviewImage? {
        let file = directory.appendingPathComponent(key.fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        guard let image = PreviewImageCodec.decode([UInt8](data)) else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return image
    }

    /// Stores a preview, then trims the folder to `byteLimit`. False when it could not be written.
    @discardableResult
    public func store(_ image: PreviewImage, for key: PreviewKey) -> Bool {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return false
        }
        let target = directory.appendingPathComponent(key.fileName)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        guard manager.createFile(atPath: temporary.path, contents: Data(PreviewImageCodec.encode(image)), attributes: [.posixPermissions: 0o600]) else {
            return false
        }
        guard rename(temporary.path, target.path) == 0 else {
            try? manager.removeItem(at: temporary)
            return false
        }
        trim()
        return true
    }

    /// Removes the least recently used previews until the rest fit in `byteLimit`.
    public func trim() {
        var stored = entries()
        var total = stored.reduce(0) { $0 + $1.bytes }
        guard total > byteLimit else { return }
        stored.sort { $0.used < $1.used }
        for entry in stored where total > byteLimit {
            if (try? FileManager.default.removeItem(at: entry.url)) != nil {
                total -= entry.bytes
            }
        }
    }

    private struct Entry {
        let url: URL
        let bytes: Int
        let used: Date
    }

    private func entries() -> [Entry] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard
            let urls = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]
            )
        else { return [] }
        return urls.compactMap { url in
            guard url.lastPathComponent.hasSuffix(Self.suffix),
                let values = try? url.resourceValues(forKeys: Set(keys))
            else { return nil }
            return Entry(url: url, bytes: values.fileSize ?? 0, used: values.contentModificationDate ?? .distantPast)
        }
    }
}
