import CSQLiteTuning
import Domain
import Foundation
import GRDB
import Storage
import Synchronization

/// tabshell's database: one SQLite file in WAL mode, shared by every tabshell process.
///
/// Open it with ``open(at:busyTimeout:connections:)``; every read and write goes through an
/// intent-named method and fails with a ``StorageError`` whose message is one sentence naming
/// the file.
public final class AppDatabase: RecordStore {
    /// The database file (for a writer handed in, the name its media folders are kept beside).
    public let url: URL
    /// The database file's path, for sentences.
    public var displayName: String { url.path }
    /// Where this database keeps its photos, staging folders and quarantine.
    public var media: MediaStore { MediaStore(databaseURL: url) }
    let writer: any DatabaseWriter

    /// A database over `opened`, whose schema is up to date; it counts in ``openHere`` until it goes.
    init(url: URL, opened: any DatabaseWriter) {
        self.url = url
        self.writer = opened
        Self.openHere.withLock { $0[url.path, default: 0] += 1 }
    }

    deinit {
        Self.openHere.withLock { open in
            open[path, default: 1] -= 1
            if open[path] == 0 { open[path] = nil }
        }
    }

    /// How many `AppDatabase`s of each file this process has open. While one is open, opening
    /// another must not open and close the file itself (to create it or read its header): POSIX
    /// advisory locks belong to the process, and closing any descriptor of the file drops the
    /// locks SQLite holds through the others — another process could then think itself the last
    /// connection and delete the WAL under commits still in it ("How To Corrupt An SQLite
    /// Database File", 2.2). SQLite's own connections share their descriptors and are safe.
    private static let openHere = Mutex<[String: Int]>([:])

    private var path: String { url.path }

    // MARK: - Opening

    /// The SQLite connections an opened database keeps. Each parses the schema and keeps a page
    /// cache of its own (a served session's reader held 192 KiB of its memory).
    public enum Connections: Sendable {
        /// A writer and readers that read beside it (GRDB's `DatabasePool`): for whoever reads
        /// from several threads while it writes (the commands, the agents' server).
        case pool
        /// One connection for reads and writes (GRDB's `DatabaseQueue`, in WAL mode like the
        /// pool): for a terminal session, whose store queue sends one call at a time.
        case single
    }

    /// Opens the database at `url`, creating it (and its folder) if needed, and brings its schema
    /// up to date.
    ///
    /// A new folder gets mode 0700 and a new file mode 0600. An existing file that is not a
    /// tabshell database (not SQLite, another program's, or made by a newer tabshell) is left
    /// untouched and reported. Open and migrate take turns across processes through an advisory
    /// lock on the sibling file `<name>.lock`.
    ///
    /// - Parameters:
    ///   - busyTimeout: How long to wait, in seconds, for a lock held by another connection
    ///     before failing with ``StorageError/locked(path:)``.
    ///   - connections: A pool of connections, or a single one (``Connections``).
    public static func open(at url: URL, busyTimeout: TimeInterval = 5, connections: Connections = .pool) throws(StorageError) -> AppDatabase {
        guard url.isFileURL else {
            throw .invalidInput("The database location \(url.absoluteString) is not a file path.")
        }
        let path = url.path
        try DatabaseFiles.makeDirectory(url.deletingLastPathComponent().path)
        try DatabaseFiles.refuseSpecialFile(path)
        // Held from here: opens take turns across processes and across this process's threads,
        // so no other open here is between its check and its registration below.
        // (The header is read only under the lock and only when the file is not open here:
        // closing any descriptor of the file drops every SQLite lock this process holds on it.)
        let lockPath = path + ".lock"
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        let lock = try OpenLock(path: lockPath, databasePath: path, timeout: busyTimeout)
        var succeeded = false
        defer {
            // A refused file (`db copy --from notes.txt`) gets no lock file left beside it.
            if !succeeded, !lockExisted { lock.removeFile() }
            lock.unlock()
        }
        if openHere.withLock({ $0[path] == nil }) {
            try DatabaseFiles.createFileIfMissing(path)
            try DatabaseFiles.checkHeader(path)
        }

        let migrator = Migrations.migrator
        do {
            switch try inspect(path: path, migrator: migrator, busyTimeout: busyTimeout) {
            case .compatible: break
            case let .newer(version): throw StorageError.newerSchema(path: path, version: version)
            case .foreign: throw StorageError.cannotOpen(path: path, reason: "it is another program's database")
            }
            var config = Configuration()
            config.foreignKeysEnabled = true
            config.busyMode = .timeout(busyTimeout)
            config.journalMode = .wal
            config.prepareDatabase { db in Self.addSchemaFunctions(db) }
            let opened: any DatabaseWriter =
                switch connections {
                case .pool: try DatabasePool(path: path, configuration: config)
                case .single: try DatabaseQueue(path: path, configuration: config)
                }
            try migrator.migrate(opened)
            succeeded = true
            return AppDatabase(url: url, opened: opened)
        } catch {
            throw .opening(error, path: path)
        }
    }

    /// Looks at the file through a read-only connection, so nothing (not even the journal
    /// mode) changes before we know the file is ours.
    private static func inspect(
        path: String, migrator: DatabaseMigrator, busyTimeout: TimeInterval
    ) throws -> SchemaCompatibility {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(busyTimeout)
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read { db in try SchemaCompatibility(db, migrator: migrator) }
    }

    /// Makes every SQLite connection this process opens lean (CSQLiteTuning): a small lookaside
    /// and no bulk page cache written when it opens, so a session's private memory holds only the
    /// pages it reads. Call first in `main`, before anything uses SQLite; false (and nothing
    /// changed) when SQLite is already in use. Served sessions measured PSS 1.92 → 1.83 MiB each.
    @discardableResult
    public static func useLeanConnections() -> Bool {
        tabshell_sqlite_use_lean_connections() == 0
    }

    // MARK: - Capture

    /// Stores a finished capture without photos and returns its id; the same as
    /// ``commitCapture(_:staging:now:)`` without a staging session.
    ///
    /// Throws ``StorageError/requestNotFound(id:)`` and writes nothing when the request is gone.
    @discardableResult public func commitCapture(_ submission: CaptureSubmission, now: Date, capturedBy: String? = nil) throws(StorageError) -> Int64 {
        try commitCapture(submission, staging: nil, now: now, capturedBy: capturedBy)
    }

    /// A counter that moves when another connection commits: another tabshell session,
    /// `tabshell inbox add` in a shell, an import. SQLite's `PRAGMA data_version`, read on the
    /// writing connection (the pool's writer, or the single one) so that successive values
    /// compare (the number is per connection); this process's own commits go through that
    /// connection and do not move it.
    public func externalChangeCounter() throws(StorageError) -> Int64 {
        do {
            return try writer.writeWithoutTransaction { db in
                // Asked by every session at each hint and poll: the statement is prepared once.
                try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
            }
        } catch {
            throw .operation(error, path: path)
        }
    }

    // MARK: - Access

    /// Runs `body` in a read-only snapshot of the database.
    func read<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try writer.read(body)
        } catch {
            throw .operation(error, path: path)
        }
    }

    /// Runs `body` in an IMMEDIATE transaction: the write lock is taken up front (waiting up to
    /// the busy timeout), so a transaction never fails half-way because another process wrote.
    func write<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw StorageError.sql("The database \(path) did not finish the write.") }
                return result
            }
        } catch {
            throw .operation(error, path: path)
        }
    }
}
