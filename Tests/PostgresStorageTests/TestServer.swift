import Foundation
import Logging
import PostgresNIO
import Storage
import Testing

@testable import PostgresStorage

/// The PostgreSQL server the tests use: `make test` starts a throw-away one
/// (scripts/pg-test-server) and hands its URL over in `TABSHELL_TEST_DATABASE_URL`.
///
/// Without it these tests fail, rather than skip: a storage engine whose tests silently did
/// not run would look tested.
enum TestServer {
    static let variable = "TABSHELL_TEST_DATABASE_URL"

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "The PostgreSQL tests need a server: run `make test`, or `scripts/pg-test-server start` and "
                + "`export \(TestServer.variable)=$(scripts/pg-test-server url)` before `swift test`."
        }
    }

    /// The server's URL, or the `Missing` failure.
    static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else { throw Missing() }
        return url
    }

    /// The server's location, read without this process's PG* variables or password file.
    static func location() throws -> PostgresLocation {
        try PostgresLocation(url: url(), environment: ["HOME": "/nonexistent", "USER": "nobody"])
    }

    /// The password of the test server's URL, to check that nothing prints it.
    static func password() throws -> String {
        guard let password = try location().password, !password.isEmpty else {
            throw TestFailure("The test server's URL has no password.")
        }
        return password
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A database of its own for one test, made on the test server and dropped (with any
/// connection still open to it) when the test is done with it.
final class ScratchDatabase {
    let location: PostgresLocation
    private let admin: PostgresPool
    let name: String

    init() throws {
        let server = try TestServer.location()
        let admin = try PostgresPool(location: server, maximumConnections: 1)
        let name = "scratch_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try admin.withConnection { session throws(StorageError) in
            try session.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        self.admin = admin
        self.name = name
        var location = server
        location.database = name
        self.location = location
    }

    /// A pool on this database.
    func pool(maximumConnections: Int = 4, logger: Logger = Logger(label: "tests")) throws -> PostgresPool {
        try PostgresPool(location: location, maximumConnections: maximumConnections, logger: logger)
    }

    deinit {
        let name = name
        _ = try? admin.withConnection { session throws(StorageError) in
            try session.execute(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        }
        admin.close()
    }
}

/// A log handler that keeps every message and its metadata, to look for what must not be logged.
/// A value, as swift-log means handlers to be: postgres-nio sets metadata on its own copies of a
/// logger on its event loop threads while others log, so a shared (class) handler's metadata was
/// written and read at once (a crash in `metadata.merging`, seen once in CI). The lines go to
/// one locked `Store`.
struct CapturingLogHandler: LogHandler, Sendable {
    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) {
            lock.lock()
            lines.append(line)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return lines
        }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(store: Store) { self.store = store }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append("\(event.level) \(event.message) \(merged) \(event.source) \(event.file):\(event.line)")
    }

    static func logger(into store: Store) -> Logger {
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(store: store) }
        logger.logLevel = .trace
        return logger
    }
}
