import CaptureMode
import Domain
import Foundation
import GRDB
import PostgresNIO
import PostgresStorage
import SQLiteStorage
import Storage
import TabShell
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test's folder (TestSupport's TemporaryFolder) with the store's files in it.
final class TemporaryDirectory: TemporaryFolder, @unchecked Sendable {
    /// The PostgreSQL database of `store(.postgres)`, made on first use.
    var scratch: PostgresScratch?

    init() throws {
        try super.init(prefix: "StorageTests")
    }

    /// `tabshell.sqlite` inside this folder.
    var databaseURL: URL { url.appendingPathComponent("tabshell.sqlite") }
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

/// A plain GRDB connection to the same file, for what the public API does not expose, with the
/// functions the schema's triggers call (a write that fires one needs them).
func rawQueue(_ url: URL) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in AppDatabase.addSchemaFunctions(db) }
    return try DatabaseQueue(path: url.path, configuration: configuration)
}

/// Opens the database in `directory`, failing the test with the storage sentence otherwise.
func openDatabase(_ directory: TemporaryDirectory, busyTimeout: TimeInterval = 5) throws -> AppDatabase {
    try AppDatabase.open(at: directory.databaseURL, busyTimeout: busyTimeout)
}

/// The storage engines the engine-neutral suites run against: SQLite in the test's
/// folder, and PostgreSQL in a database of the test's own on the server `make test` starts
/// (`TABSHELL_TEST_DATABASE_URL`; without it the PostgreSQL cases fail with a sentence).
enum StoreEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

extension TemporaryDirectory {
    /// The test's store on `engine`; for PostgreSQL, the same database each time it is asked for
    /// (a reopen), dropped with the folder.
    /// `listen`: PostgreSQL hears other sessions' commits (SQLite always does).
    func store(_ engine: StoreEngine, listen: Bool = false) throws -> any RecordStore {
        switch engine {
        case .sqlite:
            return try AppDatabase.open(at: databaseURL)
        case .postgres:
            if scratch == nil { scratch = try PostgresScratch() }
            guard let scratch else { throw StorageError.sql("no scratch database") }
            return try PostgresStore.open(scratch.location, folder: url, listen: listen)
        }
    }
}

/// A database of its own on the test server, dropped (with its connections) when released. It
/// is a copy of ``template``, which this process migrated once: the store opens on a schema
/// already up to date, as every open after a store's first does (PostgreSQL's own migration
/// tests, MigrationTests, start from empty databases).
final class PostgresScratch {
    let location: PostgresLocation
    private let admin: PostgresPool
    private let name = "storage_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")

    init() throws {
        let server = try Self.server()
        let template = try Self.template.get()
        admin = try PostgresPool(location: server, maximumConnections: 1)
        let name = self.name
        try admin.withConnection { session throws(StorageError) in
            try session.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE \(template)"))
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

    static func server() throws -> PostgresLocation {
        guard let url = ProcessInfo.processInfo.environment["TABSHELL_TEST_DATABASE_URL"], !url.isEmpty else {
            throw StorageError.invalidInput(
                "The PostgreSQL cases need a server: run `make test`, or `scripts/pg-test-server start` and "
                    + "`export TABSHELL_TEST_DATABASE_URL=$(scripts/pg-test-server url)` before `swift test`.")
        }
        return try PostgresLocation(url: url, environment: [:])
    }

    /// The migrated database every scratch is copied from, made once per test process (its
    /// connections closed, as a template must have none); left on the throw-away server.
    static let template = Result<String, any Error> {
        let server = try PostgresScratch.server()
        let name = "storage_template_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresPool(location: server, maximumConnections: 1)
        defer { admin.close() }
        try admin.withConnection { session throws(StorageError) in
            try session.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var location = server
        location.database = name
        let pool = try PostgresPool(location: location, maximumConnections: 1)
        defer { pool.close() }
        _ = try PostgresMigrator().migrate(pool)
        return name
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

/// Reads of the engine-neutral suites that only the store's pages and details answer.
extension RecordStore {
    /// How many records there are.
    func storedCount() throws(StorageError) -> Int {
        try historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount
    }

    /// A record's row, nil when there is none.
    func storedRecord(_ id: Int64) throws(StorageError) -> HistoryRow? {
        try recordDetail(id: id)?.record
    }

    /// A record's photos in their order (none when the record is gone).
    func storedPhotos(record id: Int64) throws(StorageError) -> [RecordPhoto] {
        try recordDetail(id: id)?.photos ?? []
    }

    /// The bytes of a committed photo, read the way a preview reads them.
    func storedContent(_ photo: RecordPhoto) throws -> Data {
        try Data(contentsOf: photoFile(storedName: photo.storedName))
    }
}

/// What a test does behind the store's back, on either engine: counting rows, deleting them as
/// another program would, and making the engine refuse a write (a trigger) to see that a
/// failure rolls back everything. The statements differ per engine; the promise tested does not.
struct BackDoor {
    let engine: StoreEngine
    private let sqlite: DatabaseQueue?
    private let postgres: PostgresPool?

    /// The tables the suites count: records, their photo rows, requests.
    enum Table {
        case records, photos, requests
        func name(_ engine: StoreEngine) -> String {
            switch self {
            case .records: "capture"
            case .photos: engine == .sqlite ? "photo" : "capture_photo"
            case .requests: "request"
            }
        }
    }

    /// On an SQLite file already open.
    init(sqlite queue: DatabaseQueue) {
        engine = .sqlite
        sqlite = queue
        postgres = nil
    }

    init(_ temp: TemporaryDirectory, _ engine: StoreEngine) throws {
        self.engine = engine
        switch engine {
        case .sqlite:
            sqlite = try rawQueue(temp.databaseURL)
            postgres = nil
        case .postgres:
            guard let scratch = temp.scratch else { throw StorageError.sql("open the store before its back door") }
            sqlite = nil
            postgres = try PostgresPool(location: scratch.location, maximumConnections: 1)
        }
    }

    /// Runs one statement of the engine's dialect.
    func execute(_ sql: String) throws {
        if let sqlite {
            try sqlite.write { db in try db.execute(sql: sql) }
        } else if let postgres {
            try postgres.withConnection { session throws(StorageError) in
                _ = try session.execute(PostgresQuery(unsafeSQL: sql))
            }
        }
    }

    /// Runs `sqlite` or `postgres`, whichever is this engine's.
    func execute(sqlite sqliteSQL: String, postgres postgresSQL: String) throws {
        try execute(engine == .sqlite ? sqliteSQL : postgresSQL)
    }

    /// The number of rows in `table`.
    func count(_ table: Table) throws -> Int {
        Int(try integers("SELECT COUNT(*) FROM \(table.name(engine))").first ?? -1)
    }

    /// The first column of every row of `sql` (this engine's dialect), as integers.
    func integers(_ sql: String) throws -> [Int64] {
        if let sqlite {
            return try sqlite.read { db in try Int64.fetchAll(db, sql: sql) }
        }
        guard let postgres else { return [] }
        return try postgres.withConnection { session throws(StorageError) in
            try session.rows(PostgresQuery(unsafeSQL: sql)).compactMap { try? $0.decode(Int64.self) }
        }
    }

    /// The one integer `sqlite` or `postgres` answers (a count), -1 when there is none.
    func integer(sqlite sqliteSQL: String, postgres postgresSQL: String) throws -> Int {
        Int(try integers(engine == .sqlite ? sqliteSQL : postgresSQL).first ?? -1)
    }

    /// Makes every insert into `table` (those matching `condition`, written as for both engines
    /// with `NEW.`) fail with `message`, until ``allowInserts(into:)``.
    func refuseInserts(into table: Table, when condition: String? = nil, message: String) throws {
        let name = "refuse_\(table.name(engine))"
        switch engine {
        case .sqlite:
            let when = condition.map { " WHEN \($0)" } ?? ""
            try execute(
                "CREATE TRIGGER \(name) BEFORE INSERT ON \(table.name(engine))\(when) BEGIN SELECT RAISE(ABORT, '\(message)'); END")
        case .postgres:
            let when = condition.map { " WHEN (\($0))" } ?? ""
            try execute("CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '\(message)'; END $$")
            try execute(
                "CREATE TRIGGER \(name) BEFORE INSERT ON \(table.name(engine)) FOR EACH ROW\(when) EXECUTE FUNCTION \(name)()")
        }
    }

    /// Undoes ``refuseInserts(into:when:message:)``.
    func allowInserts(into table: Table) throws {
        let name = "refuse_\(table.name(engine))"
        try execute("DROP TRIGGER \(name)\(engine == .postgres ? " ON \(table.name(engine))" : "")")
    }
}

extension TemporaryDirectory {
    /// The test's back door to its store on `engine` (open the store first).
    func backDoor(_ engine: StoreEngine) throws -> BackDoor {
        try BackDoor(self, engine)
    }
}
