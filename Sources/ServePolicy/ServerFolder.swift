import Foundation
import Glibc
import Synchronization

/// A folder a running server makes for its sessions' files (its demo data sets, its
/// presentations' sockets) and the file in it the server holds locked (flock) for its life, so
/// a sweep tells a live server's folder from one a killed server left.
enum ServerFolder {
    /// Makes `path` (0700) and takes the lock `lockName` in it: the lock's descriptor. Nothing
    /// is left behind when the lock cannot be taken.
    static func make(_ path: String, lockName: String, intermediates: Bool) throws -> Int32 {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: intermediates, attributes: [.posixPermissions: 0o700])
        let fd = open(path + "/" + lockName, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if fd >= 0 { close(fd) }
            try? FileManager.default.removeItem(atPath: path)
            throw CocoaError(.fileWriteUnknown)
        }
        return fd
    }

    /// Whether the server that made `folder` is gone: nobody holds its lock, or it has no lock
    /// file and is older than a minute (a server may be making it). With `lockAge`, a lock file
    /// younger than that many seconds counts as a starting server's, not yet flock'd.
    static func isLeft(_ folder: String, lockName: String, now: Date, lockAge: TimeInterval? = nil) -> Bool {
        let lockPath = folder + "/" + lockName
        let fd = open(lockPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return isOlder(folder, than: 60, now: now) }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        return lockAge.map { isOlder(lockPath, than: $0, now: now) } ?? true
    }

    private static func isOlder(_ path: String, than seconds: TimeInterval, now: Date) -> Bool {
        let made = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        return made.map { now.timeIntervalSince($0) > seconds } ?? false
    }
}

extension Mutex where Value == Int32? {
    /// The lock's descriptor, taken out (nil once taken).
    func take() -> Int32? {
        withLock { fd in
            defer { fd = nil }
            return fd
        }
    }
}
