import CaptureMode
import Foundation
import GRDB
import PostgresNIO
import PostgresStorage
import Storage
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh folder under the system temp directory, removed (with everything in it) on deinit.
final class TemporaryDirectory {
    let url: URL
    /// The PostgreSQL database of `store(.postgres)`, made on first use.
    var scratch: PostgresScratch?

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

/// The storage engines the engine-neutral suites run against (issue #16): SQLite in the test's
/// folder, and PostgreSQL in a database of the test's own on the server `make test` starts
/// (`TABSHELL_TEST_DATABASE_URL`; without it the PostgreSQL cases fail with a sentence).
enum StoreEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

extension TemporaryDirectory {
    /// The test's store on `engine`; for PostgreSQL, the same database each time it is asked for
    /// (a reopen), dropped with the folder.
    func store(_ engine: StoreEngine) throws -> any RecordStore {
        switch engine {
        case .sqlite:
            return try AppDatabase.open(at: databaseURL)
        case .postgres:
            if scratch == nil { scratch = try PostgresScratch() }
            guard let scratch else { throw StorageError.sql("no scratch database") }
            return try PostgresStore.open(scratch.location, folder: url, listen: false)
        }
    }
}

/// A database of its own on the test server, dropped (with its connections) when released.
final class PostgresScratch {
    let location: PostgresLocation
    private let admin: PostgresPool
    private let name = "storage_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")

    init() throws {
        guard let url = ProcessInfo.processInfo.environment["TABSHELL_TEST_DATABASE_URL"], !url.isEmpty else {
            throw StorageError.invalidInput(
                "The PostgreSQL cases need a server: run `make test`, or `scripts/pg-test-server start` and "
                    + "`export TABSHELL_TEST_DATABASE_URL=$(scripts/pg-test-server url)` before `swift test`.")
        }
        let server = try PostgresLocation(url: url, environment: [:])
        admin = try PostgresPool(location: server, maximumConnections: 1)
        let name = self.name
        try admin.withConnection { session throws(StorageError) in
            try session.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var location = server
        location.database = name
        self.location = location
    }

    deinit {
        let name = self.name
        _ = try? admin.withConnection { session throws(StorageError) in
            try session.execute(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        }
        admin.close()
    }
}

/// The everyday calls with the defaults the engine-neutral suites use.
extension RecordStore {
    @discardableResult
    func add(title: String, body: String = "", kind: CaptureKind, now: Date, createdBy: String? = nil) throws(StorageError) -> Int64 {
        try addRequest(title: title, body: body, kind: kind, now: now, createdBy: createdBy, requester: nil)
    }

    @discardableResult
    func commit(_ submission: CaptureSubmission, now: Date, capturedBy: String? = nil) throws(StorageError) -> Int64 {
        try commitCapture(submission, staging: nil, now: now, capturedBy: capturedBy)
    }
}
