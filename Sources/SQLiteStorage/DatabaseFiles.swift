import Foundation
import Storage

/// File-system steps taken before SQLite sees the database: private folders and files,
/// a cheap header check, and the cross-process lock that serializes open + migrate.
///
/// None of these ever writes to an existing file or removes anything.
enum DatabaseFiles {
    /// The first 16 bytes of every SQLite 3 database file.
    static let sqliteMagic: [UInt8] = Array("SQLite format 3\0".utf8)

    /// Creates `directory` and any missing ancestors with mode 0700. Existing folders are left as they are.
    static func makeDirectory(_ directory: String) throws(StorageError) {
        var prefix = ""
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            var info = stat()
            if stat(prefix, &info) == 0 {
                guard DurableFiles.isDirectory(info) else {
                    throw .cannotCreate(path: directory, reason: "\(prefix) is a file, not a folder")
                }
                continue
            }
            let statError = errno
            guard statError == ENOENT else {
                throw .cannotCreate(path: directory, reason: DurableFiles.reason(errno: statError))
            }
            if mkdir(prefix, 0o700) == 0 {
                // The umask may have removed owner bits; the folder is ours, so set them exactly.
                _ = chmod(prefix, 0o700)
                continue
            }
            let mkdirError = errno
            // Another process may have made it between stat and mkdir.
            if mkdirError == EEXIST, stat(prefix, &info) == 0, DurableFiles.isDirectory(info) { continue }
            throw .cannotCreate(path: directory, reason: DurableFiles.reason(errno: mkdirError))
        }
    }

    /// Creates an empty database file with mode 0600 unless a file is already there.
    ///
    /// SQLite gives its -wal and -shm files the mode of the database file, so they are private too.
    static func createFileIfMissing(_ path: String) throws(StorageError) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            _ = fchmod(fd, 0o600)
            _ = close(fd)
            return
        }
        let openError = errno
        guard openError == EEXIST else {
            throw .cannotCreate(path: path, reason: DurableFiles.reason(errno: openError))
        }
    }

    /// Refuses, before anything is made beside it, a `path` that names something other than a
    /// file or a folder: a named pipe would hold any open of it until something writes to it,
    /// and a device or a socket holds no database either. A missing path passes (it is created).
    static func refuseSpecialFile(_ path: String) throws(StorageError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR else {
            throw .cannotOpen(path: path, reason: "it is not a regular file (a pipe, a device or a socket)")
        }
    }

    /// Checks, without writing, that `path` is a regular, readable file that is empty or starts
    /// like a SQLite database.
    static func checkHeader(_ path: String) throws(StorageError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .cannotOpen(path: path, reason: DurableFiles.reason(errno: errno))
        }
        if DurableFiles.isDirectory(info) {
            throw .cannotOpen(path: path, reason: "it is a folder, not a file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .cannotOpen(path: path, reason: DurableFiles.reason(errno: errno))
        }
        defer { _ = close(fd) }
        var header = [UInt8](repeating: 0, count: sqliteMagic.count)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            throw .cannotOpen(path: path, reason: DurableFiles.reason(errno: errno))
        }
        if count == 0 { return }  // A new, empty database.
        guard count == sqliteMagic.count, header == sqliteMagic else {
            throw .cannotOpen(path: path, reason: "the file is not a SQLite database")
        }
    }
}

/// An exclusive advisory lock (`flock`) on a sibling file, held while a process opens and
/// migrates the database so that several tabshell processes starting at once take turns.
final class OpenLock {
    private var fd: Int32
    private let path: String

    /// Takes the lock on `path` (created with mode 0600), waiting at most `timeout` seconds.
    init(path: String, databasePath: String, timeout: TimeInterval) throws(StorageError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .cannotCreate(path: path, reason: DurableFiles.reason(errno: errno))
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let lockError = errno
            guard lockError == EWOULDBLOCK || lockError == EINTR else {
                _ = close(fd)
                throw .cannotOpen(path: path, reason: DurableFiles.reason(errno: lockError))
            }
            guard Date() < deadline else {
                _ = close(fd)
                throw .locked(path: databasePath)
            }
            usleep(10_000)
        }
        self.fd = fd
        self.path = path
    }

    /// Removes the lock file while still holding it, when `path` still names the file locked
    /// (an open that made it, then refused what it found, leaves nothing beside the file). An
    /// open already waiting on it then holds a file no one else finds, and checks the database
    /// itself again.
    func removeFile() {
        guard fd >= 0 else { return }
        var held = stat()
        var named = stat()
        guard fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino else { return }
        _ = unlink(path)
    }

    /// Releases the lock (closing the descriptor releases the flock). Calling it again does nothing.
    func unlock() {
        guard fd >= 0 else { return }
        _ = close(fd)
        fd = -1
    }

    deinit {
        unlock()
    }
}
