import Domain
import Foundation

/// A host's size-capped cache of photos kept in a database server (PostgreSQL): one file per
/// photo, named by its SHA-256 and format (`<64 hex digits>.<ext>`), in a private folder. A hit
/// freshens the file's time; a store trims the folder to ``limit`` bytes, least recently used
/// first. Only a cache: every file can be fetched again, so losing any costs a fetch.
public struct PhotoCache: Sendable {
    public let directory: URL
    /// The most bytes the folder keeps.
    public let limit: Int64

    public init(directory: URL, limit: Int64) {
        self.directory = directory
        self.limit = limit
    }

    /// `<hash>.<ext>` for a photo of `format` whose SHA-256 is `hash` (hex).
    public static func storedName(hash: String, format: ImageFormat) -> String {
        hash.lowercased() + "." + MediaStore.fileExtension(for: format)
    }

    /// The hash in a cached photo's name, or nil when `name` is not one (no path, no dot file).
    public static func hash(ofStoredName name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy({ $0.isHexDigit && ($0.isNumber || $0.isLowercase) }),
            ImageFormat.allCases.contains(where: { MediaStore.fileExtension(for: $0) == parts[1] })
        else { return nil }
        return String(parts[0])
    }

    /// The cached file `name`, its time freshened, or nil when it is not cached.
    public func hit(_ name: String) -> URL? {
        let path = directory.path + "/" + name
        guard let info = DurableFiles.status(path), DurableFiles.isRegularFile(info) else { return nil }
        _ = utimensat(AT_FDCWD, path, nil, 0)
        return URL(fileURLWithPath: path)
    }

    /// Writes `data` as `name` (atomically, mode 0600), trims the cache, and returns the file.
    @discardableResult
    public func store(_ data: Data, as name: String) throws(StorageError) -> URL {
        try makeDirectories()
        let path = directory.path + "/" + name
        try DurableFiles.writeAtomically(data, to: path)
        trim(keeping: name)
        return URL(fileURLWithPath: path)
    }

    /// Best effort: `file` (a photo just committed from this host, in its staging folder, on the
    /// same file system) becomes the cached `name` by a rename — no second read and write; a copy
    /// only when the rename cannot be done.
    public func keep(moving file: URL, as name: String) {
        guard hit(name) == nil, (try? makeDirectories()) != nil else { return }
        if rename(file.path, directory.path + "/" + name) == 0 {
            trim(keeping: name)
        } else if let data = FileManager.default.contents(atPath: file.path) {
            _ = try? store(data, as: name)
        }
    }

    /// The cache's folder and its parent, made (0700) when missing.
    private func makeDirectories() throws(StorageError) {
        try DurableFiles.makePrivateDirectory(directory.deletingLastPathComponent().path)
        try DurableFiles.makePrivateDirectory(directory.path)
    }

    /// The photos in the cache: each one's hash and file name.
    public func photos() -> [(hash: String, name: String)] {
        (DurableFiles.entries(of: directory.path) ?? []).compactMap { name in
            Self.hash(ofStoredName: name).map { (hash: $0, name: name) }
        }
    }

    /// Removes the cached photos `names` (a deleted record's): best effort, a cache.
    public func remove(_ names: [String]) {
        for name in names where Self.hash(ofStoredName: name) != nil {
            _ = unlink(directory.path + "/" + name)
        }
    }

    /// Removes the least recently used photos until the folder holds at most ``limit`` bytes;
    /// `keeping` (the one just stored) stays even when it alone is larger.
    func trim(keeping: String) {
        var files: [(name: String, size: Int64, time: Date)] = []
        var total: Int64 = 0
        for name in DurableFiles.entries(of: directory.path) ?? [] where Self.hash(ofStoredName: name) != nil {
            guard let info = DurableFiles.status(directory.path + "/" + name), DurableFiles.isRegularFile(info) else { continue }
            files.append((name, Int64(info.st_size), DurableFiles.modificationDate(info)))
            total += Int64(info.st_size)
        }
        guard total > limit else { return }
        for file in files.sorted(by: { $0.time < $1.time }) where file.name != keeping {
            guard total > limit else { break }
            if unlink(directory.path + "/" + file.name) == 0 { total -= file.size }
        }
    }
}
