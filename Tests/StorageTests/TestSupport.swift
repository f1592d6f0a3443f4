import Foundation
import GRDB
import Storage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh folder under the system temp directory, removed (with everything in it) on deinit.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("StorageTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// `tabshell.sqlite` inside this folder.
    var databaseURL: URL { url.appendingPathComponent("tabshell.sqlite") }

    deinit {
        // Tests may leave read-only folders behind; make them writable so removal succeeds.
        // Symbolic links are skipped: chmod follows them, and a test plants one to /etc
        // (UploadFolderTests), which this loop once made mode 0700 for the whole machine.
        if let paths = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in paths {
                let full = url.appendingPathComponent(path).path
                var info = stat()
                guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK else { continue }
                _ = chmod(full, 0o700)
            }
        }
        _ = chmod(url.path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
}

/// Fixed instants; whole seconds so they survive SQLite's millisecond precision exactly.
enum Clock {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static func minutesAgo(_ minutes: Double) -> Date { now.addingTimeInterval(-minutes * 60) }
}

/// The permission bits of the file at `path`, or nil when it cannot be stat-ed.
func permissions(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
}

/// A plain GRDB connection to the same file, for what the public API does not expose.
func rawQueue(_ url: URL) throws -> DatabaseQueue {
    try DatabaseQueue(path: url.path)
}

/// Opens the database in `directory`, failing the test with the storage sentence otherwise.
func openDatabase(_ directory: TemporaryDirectory, busyTimeout: TimeInterval = 5) throws -> AppDatabase {
    try AppDatabase.open(at: directory.databaseURL, busyTimeout: busyTimeout)
}
