import Foundation

/// The POSIX steps the durability protocol is made of: fsync a file or a folder, write a small
/// file atomically, rename, list and remove. Each throwing step fails with a sentence.
package enum DurableFiles {
    /// Flushes the entries of `directory` (creations, renames, removals) to the disk.
    package static func syncDirectory(_ directory: String) throws(StorageError) {
        try sync(directory, opening: O_DIRECTORY)
    }

    /// Opens `path` read-only (with `flags`) and flushes it to the disk.
    private static func sync(_ path: String, opening flags: Int32) throws(StorageError) {
        let fd = open(path, O_RDONLY | flags | O_CLOEXEC)
        guard fd >= 0 else {
            throw .fileSystem("Cannot open \(path): \(DurableFiles.reason(errno: errno)).")
        }
        defer { _ = close(fd) }
        guard fsyncRetrying(fd) == 0 else {
            throw .fileSystem("Cannot save \(path) to disk: \(DurableFiles.reason(errno: errno)).")
        }
    }

    /// Closes a descriptor (a name that does not clash with types' own `close()` methods).
    package static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// `fsync`, retried when a signal interrupts it.
    package static func fsyncRetrying(_ fd: Int32) -> Int32 {
        var result: Int32
        repeat { result = fsync(fd) } while result != 0 && errno == EINTR
        return result
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and interruptions; returns 0, or the
    /// `errno` of the failure.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return 0 }
            let written = write(fd, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// Reads up to `count` bytes into `buffer`, retrying interruptions and short reads until
    /// `count` bytes or the end of the file; returns the number read, or -1 with `errno` set.
    package static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        var total = 0
        while total < count {
            guard let base = buffer.baseAddress else { return total }
            let got = read(fd, base + total, count - total)
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return -1
            }
            if got == 0 { break }
            total += got
        }
        return total
    }

    /// Replaces `path` with `data` so that a crash leaves either the old or the new content:
    /// writes a `.tmp-<uuid>` sibling (0600), fsyncs it, renames it over `path`, fsyncs the folder.
    /// With `durably` false the file is renamed into place without an fsync: a process that
    /// dies at once (a kill, a crash) still leaves it, and `syncFile(_:)` makes it durable later.
    package static func writeAtomically(_ data: Data, to path: String, durably: Bool = true) throws(StorageError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temp = directory + "/" + tempPrefix + UUID().uuidString.lowercased()
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .fileSystem("Cannot create \(temp): \(DurableFiles.reason(errno: errno)).")
        }
        _ = fchmod(fd, 0o600)
        var failure = data.withUnsafeBytes { writeAll(fd, $0) }
        if failure == 0, durably, fsyncRetrying(fd) != 0 { failure = errno }
        _ = close(fd)
        if failure == 0, rename(temp, path) != 0 { failure = errno }
        guard failure == 0 else {
            _ = unlink(temp)
            throw .fileSystem("Cannot write \(path): \(DurableFiles.reason(errno: failure)).")
        }
        if durably { try syncDirectory(directory) }
    }

    /// Flushes the file at `path` and the entry naming it in its folder to the disk.
    package static func syncFile(_ path: String) throws(StorageError) {
        try sync(path, opening: O_NOFOLLOW)
        try syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// The prefix of every temporary file tabshell writes; start-up recovery removes them.
    package static let tempPrefix = ".tmp-"

    /// The names in `directory` (without "." and ".."), or nil when it cannot be read.
    package static func entries(of directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `lstat` of `path`: the entry itself, never what a symbolic link points to.
    package static func status(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    package static func isRegularFile(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }
    package static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    /// The modification time of `info` as a `Date`.
    package static func modificationDate(_ info: stat) -> Date {
        #if canImport(Darwin)
        let spec = info.st_mtimespec
        #else
        let spec = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: TimeInterval(spec.tv_sec) + TimeInterval(spec.tv_nsec) / 1e9)
    }

    /// Removes `directory` and everything in it, without following symbolic links; `lockName`,
    /// if given, is removed last so whoever holds that lock owns the folder to the end.
    /// Returns false when something could not be removed.
    @discardableResult
    package static func removeTree(_ directory: String, lockName: String? = nil) -> Bool {
        for attempt in 0..<3 {
            for name in entries(of: directory) ?? [] where name != lockName {
                let path = directory + "/" + name
                if unlink(path) != 0, errno == EISDIR || errno == EPERM {
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
            if let lockName { _ = unlink(directory + "/" + lockName) }
            if rmdir(directory) == 0 || errno == ENOENT { return true }
            // ENOTEMPTY: a start-up recovery in another process created a lock file meanwhile.
            if errno != ENOTEMPTY || attempt == 2 { return false }
        }
        return false
    }

    /// Creates `directory` with mode 0700 unless it exists (as a folder).
    package static func makePrivateDirectory(_ directory: String) throws(StorageError) {
        if mkdir(directory, 0o700) == 0 {
            _ = chmod(directory, 0o700)
            return
        }
        let mkdirError = errno
        if mkdirError == EEXIST, let info = status(directory), isDirectory(info) { return }
        throw .cannotCreate(path: directory, reason: DurableFiles.reason(errno: mkdirError))
    }

    /// A lower-case phrase for an `errno` value, to follow "Cannot create X: ".
    package static func reason(errno code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case EROFS: "the file system is read-only"
        case ENOSPC, EDQUOT: "no space is left on the device"
        case ENOTDIR: "a part of the path is a file, not a folder"
        case EISDIR: "it is a folder, not a file"
        case ENAMETOOLONG: "the path is too long"
        case ELOOP: "the path has too many symbolic links"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
