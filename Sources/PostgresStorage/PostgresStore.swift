import Domain
import Foundation
import Logging
import PostgresNIO
import Storage
import Synchronization

/// tabshell's storage on a PostgreSQL server, shared by every host of a team: the same
/// ``RecordStore`` as SQLite's `AppDatabase` (SQLiteStorage), so the app and the commands do not know which
/// engine they have.
///
/// - Photos live in the database (`photo_content`, keyed by SHA-256), so Done — the capture,
///   its photos and its request's new status — is one transaction, commit-or-nothing across
///   hosts. Staging stays on this host (``media``'s `staging/`), and photos this host has
///   shown are kept in a size-capped cache (``media``'s `media/`, named by their hash).
/// - Other hosts' commits are heard through `LISTEN` (``PostgresChangeListener``), never by
///   polling the server: ``externalChangeCounter()`` reads a local counter the listener moves.
/// - When the server goes away the listener says so (``externalChangeCounter()`` throws
///   ``StorageError/unreachable(_:)``) and tries again every second; every call fails with one
///   sentence meanwhile, and works again once the server is back.
public final class PostgresStore: RecordStore, @unchecked Sendable {
    /// Where the store is (its description never shows the password).
    public let location: PostgresLocation
    /// This host's folders for the store: staging, and the cache of photos shown.
    public let media: MediaStore
    /// The most bytes the photo cache keeps; the least recently used photos go first.
    public let photoCacheLimit: Int64
    let pool: PostgresPool
    private let logger: Logger
    private let changes = Mutex(Changes())
    private let listening = Mutex<ListenerState>(.idle)

    /// What the listener has heard, and the server processes of this store's own sessions
    /// (whose commits are not "elsewhere").
    private struct Changes {
        var counter: Int64 = 0
        var ownBackends: Set<Int32> = []
        var problem: String?
        /// Who hears of each change at once (``changeHints(_:)``), by a number of their own.
        var hints: [Int: @Sendable () -> Void] = [:]
        var nextHint = 0
    }

    private enum ListenerState {
        case idle
        case listening(PostgresChangeListener)
        case reconnecting
        case stopped
    }

    /// The cache's default size: 512 MiB.
    public static let defaultPhotoCacheLimit: Int64 = 512 * 1024 * 1024
    /// The largest photo PostgreSQL can hold in one `bytea` (1 GiB less a little).
    public static let maximumPhotoBytes: Int64 = 1_000_000_000
    /// How long a statement may wait for the server before the app says it is unreachable.
    public static let answerTimeout: TimeAmount = .seconds(10)

    public var displayName: String { location.address }

    /// Connects to the store at `location`, brings its schema up to date (once across hosts),
    /// and, with `listen`, starts hearing other hosts' commits. `folder` is this host's data
    /// folder: the store's staging and photo cache go in a folder of it named after the store.
    ///
    /// - Throws: One sentence when the server cannot be reached, refuses the login, or holds a
    ///   newer tabshell's schema or another program's tables.
    public static func open(
        _ location: PostgresLocation, folder: URL, listen: Bool = true, photoCacheLimit: Int64 = defaultPhotoCacheLimit,
        maximumConnections: Int = 4, answerTimeout: TimeAmount? = PostgresStore.answerTimeout,
        logger: Logger = Logger(label: "tabshell.postgres")
    ) throws(StorageError) -> PostgresStore {
        let pool = try PostgresPool(
            location: location, maximumConnections: maximumConnections, answerTimeout: answerTimeout, logger: logger)
        do {
            _ = try PostgresMigrator().migrate(pool)
        } catch {
            pool.close()
            throw error
        }
        // This host's folder for the store's staging and photo cache, private like SQLite's.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = PostgresStore(location: location, pool: pool, folder: folder, photoCacheLimit: photoCacheLimit, logger: logger)
        if listen { try store.startListening() }
        return store
    }

    private init(location: PostgresLocation, pool: PostgresPool, folder: URL, photoCacheLimit: Int64, logger: Logger) {
        self.location = location
        self.pool = pool
        self.logger = logger
        self.photoCacheLimit = max(photoCacheLimit, 0)
        media = MediaStore(databaseURL: folder.appendingPathComponent(Self.folderName(for: location), isDirectory: false))
    }

    deinit {
        close()
    }

    /// Stops listening and closes the connections.
    public func close() {
        let state = listening.withLock { state in
            defer { state = .stopped }
            return state
        }
        if case let .listening(listener) = state { listener.stop() }
        pool.close()
    }

    /// `postgres-USER@HOST-PORT-DATABASE`: this host's folder for one store, from its address
    /// with every character but letters, digits, `.`, `_`, `@` and `-` replaced.
    static func folderName(for location: PostgresLocation) -> String {
        let address = location.address.replacingOccurrences(of: "postgres://", with: "")
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@-")
        return "postgres-" + String(address.map { allowed.contains($0) ? $0 : "-" })
    }

    // MARK: - Other hosts' changes

    /// Moves when another session commits; throws ``StorageError/unreachable(_:)`` while the
    /// listener's connection is lost. Reads local state only.
    public func externalChangeCounter() throws(StorageError) -> Int64 {
        let (counter, problem) = changes.withLock { ($0.counter, $0.problem) }
        if let problem { throw .unreachable(problem) }
        return counter
    }

    private func startListening() throws(StorageError) {
        let listener = try PostgresChangeListener(
            location: location, logger: logger,
            onChange: { [weak self] change in self?.heard(change) },
            onLost: { [weak self] error in self?.lost(error) })
        let kept = listening.withLock { state -> Bool in
            if case .stopped = state { return false }
            state = .listening(listener)
            return true
        }
        if !kept { listener.stop() }
    }

    private func heard(_ change: PostgresChangeListener.Change) {
        let heard = changes.withLock { changes -> Bool in
            guard !changes.ownBackends.contains(change.backendPID) else { return false }
            changes.counter += 1
            return true
        }
        if heard { hintAll() }
    }

    /// Tells every session listening (``changeHints(_:)``) to read the counter now: another
    /// host committed, or the listener was lost or is back.
    private func hintAll() {
        for hint in changes.withLock({ Array($0.hints.values) }) { hint() }
    }

    /// The listener's news of another session's commit, passed on as it arrives (on an event
    /// loop thread: `hint` must only hand it on).
    public func changeHints(_ hint: @escaping @Sendable () -> Void) -> ChangeHints? {
        let number = changes.withLock { changes in
            defer { changes.nextHint += 1 }
            changes.hints[changes.nextHint] = hint
            return changes.nextHint
        }
        return ChangeHints { [weak self] in _ = self?.changes.withLock { $0.hints.removeValue(forKey: number) } }
    }

    /// The listener's connection ended: say so (the sessions are told at once, not at their
    /// next poll), and try again every second on a thread of its own until the server answers;
    /// then count a change and tell them, so everything shown is read again.
    private func lost(_ error: StorageError) {
        // Called on an event loop thread: the old listener is let go on the new thread (its
        // deinit waits for its connection to close, which an event loop thread must not do).
        let old = listening.withLock { state -> PostgresChangeListener? in
            guard case let .listening(listener) = state else { return nil }
            state = .reconnecting
            return listener
        }
        guard let old else { return }
        logger.warning("\(error.message)")
        changes.withLock { $0.problem = error.message }
        hintAll()
        Thread.detachNewThread { [weak self, old] in
            old.stop()
            while true {
                Thread.sleep(forTimeInterval: 1)
                guard let self else { return }
                if case .stopped = self.listening.withLock({ $0 }) { return }
                do throws(StorageError) {
                    try self.startListening()
                    self.changes.withLock { changes in
                        changes.problem = nil
                        changes.counter += 1
                    }
                    self.hintAll()
                    self.logger.info("listening again", metadata: ["store": "\(self.displayName)"])
                    return
                } catch {
                    self.changes.withLock { $0.problem = error.message }
                }
            }
        }
    }

    /// Remembers the server process of a session about to commit, so its announcement is not
    /// taken for another host's.
    private func noteOwnSession(_ session: PostgresSession) throws(StorageError) {
        guard let pid = try session.value("SELECT pg_backend_pid()", as: Int32.self) else { return }
        changes.withLock { _ = $0.ownBackends.insert(pid) }
    }

    /// A write: one transaction, its session remembered as this store's own.
    func write<T>(_ body: (PostgresSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try reaching { () throws(StorageError) -> T in
            try pool.transaction { session throws(StorageError) in
                try noteOwnSession(session)
                return try body(session)
            }
        }
    }

    /// One statement on a connection of the pool, committed by itself (no BEGIN/COMMIT round
    /// trips): for reads of a single statement.
    func query<T>(_ body: (PostgresSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try reaching { () throws(StorageError) -> T in try pool.withConnection(body) }
    }

    /// A read of several statements in one snapshot (REPEATABLE READ, read only).
    func read<T>(_ body: (PostgresSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try reaching { () throws(StorageError) -> T in
            try pool.withConnection { session throws(StorageError) in
                try session.transaction { session throws(StorageError) in
                    try session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    return try body(session)
                }
            }
        }
    }

    /// Runs `call` unless the server is known to be unreachable. With a listener (the app):
    /// while it has lost the server, every call fails at once with its sentence instead of
    /// waiting for an answer that will not come (a server stopped, or a network dropping
    /// packets, would otherwise hold the screen for the answer timeout on every key); a call
    /// that finds the server unreachable first sends the listener to look for it again. The
    /// listener's return (every second it tries) ends this.
    private func reaching<T>(_ call: () throws(StorageError) -> T) throws(StorageError) -> T {
        let listens = listening.withLock { state in
            switch state {
            case .listening, .reconnecting: true
            case .idle, .stopped: false
            }
        }
        guard listens else { return try call() }
        if let problem = changes.withLock({ $0.problem }) { throw .unreachable(problem) }
        do {
            return try call()
        } catch {
            if case .unreachable = error { lost(error) }
            throw error
        }
    }

    // MARK: - History

    /// The newest matches among the newest records, then in the whole index if need be.
    public func searchStatements(_ text: String, limit: Int) -> [StoreSQL] {
        PostgresQueries.searchSteps(text, limit: limit)
    }

    /// A record's photos in order, with the facts of their content.
    public func photos(ofRecords ids: ClosedRange<Int64>, _ session: any StatementSession) throws(StorageError)
        -> [Int64: [RecordPhoto]]
    {
        let photos: StoreSQL = """
            SELECT capture_photo.capture_id, \(PostgresRows.photoColumns) \(PostgresRows.photoTables)
            WHERE capture_photo.capture_id BETWEEN \(ids.lowerBound) AND \(ids.upperBound)
            ORDER BY capture_photo.capture_id, capture_photo.position
            """
        var byRecord: [Int64: [RecordPhoto]] = [:]
        try session.forEachRow(photos) { row throws(StorageError) in
            guard let id = try row.integer(0) else { throw session.unreadable("a photo") }
            byRecord[id, default: []].append(try PostgresRows.photo(row, from: 1, captureID: id, location))
        }
        return byRecord
    }

    /// The files the export names are in this host's cache: fetched now (an export with more
    /// photos than the cache holds evicts its earliest ones again).
    public func exportFiles(of photos: [RecordPhoto], _ session: any StatementSession) throws(StorageError) {
        for photo in photos { _ = try cachedFile(photo.storedName, session) }
    }

    // MARK: - Deleting (Storage's deleteRecord and deleteAllRecords)

    /// Those of the photos the database no longer has: a photo no other record shows left it
    /// with its last row (a trigger).
    public func photoFilesFreed(by storedNames: [String], _ session: any StatementSession) throws(StorageError) -> [String] {
        let hashes = storedNames.compactMap(PhotoCache.hash(ofStoredName:))
        guard !hashes.isEmpty else { return [] }
        // Hexadecimal hashes (PhotoCache checked each), so a comma parts them.
        let kept: StoreSQL = """
            SELECT encode(sha256, 'hex') FROM photo_content
            WHERE sha256 = ANY(SELECT decode(hash, 'hex') FROM unnest(string_to_array(\(hashes.joined(separator: ",")), ',')) AS hash)
            """
        let still = Set(try session.all(kept) { row throws(StorageError) in try row.text(0) ?? "" })
        return storedNames.filter { name in PhotoCache.hash(ofStoredName: name).map { !still.contains($0) } ?? false }
    }

    /// The photos in this host's cache (other hosts' caches keep theirs until trimmed, never
    /// shown again since no record names them).
    public func photoFilesBeforeDeletingAll(_ session: any StatementSession) -> [String] {
        PhotoCache(directory: media.mediaDirectory, limit: photoCacheLimit).photos().map(\.name)
    }

    /// Removes deleted photos from this host's cache.
    public func removePhotoFiles(_ storedNames: [String]) {
        PhotoCache(directory: media.mediaDirectory, limit: photoCacheLimit).remove(storedNames)
    }

    // MARK: - Done

    /// Done: the photos (each stored once, by its hash), the capture, its GS1 fields and batch
    /// lines, and the request's new status, in one transaction. Photos are read from `staging`
    /// on this host; once committed they are kept in this host's cache and the staging folder
    /// goes. When anything fails nothing is written, and the staging folder stays as it was.
    @discardableResult public func commitCapture(
        _ submission: CaptureSubmission, staging: StagingSession?, now: Date, capturedBy: String?
    ) throws(StorageError) -> Int64 {
        let photos = try RequestLimits.validate(submission, staging: staging)
        if let large = photos.first(where: { $0.byteSize > Self.maximumPhotoBytes }) {
            throw .fileRefused("\(large.originalName) is larger than PostgreSQL can keep in one value (1 GB).")
        }
        let (captureID, hashes): (Int64, [String]) = try write { session throws(StorageError) in
            // The large part first, before the capture count's row is locked.
            let hashes = try storePhotoContents(photos, from: staging, session)
            let captureID = try CaptureRows.commit(
                submission, now: now, stagingID: staging?.stagingID, capturedBy: capturedBy,
                captureSteps(zip(photos, hashes).map { (photo: $0, hash: $1) }, session), PostgresStatements(session: session))
            return (captureID, hashes)
        }
        // Committed: the photos are this host's to show without fetching them back.
        if let staging {
            let cache = PhotoCache(directory: media.mediaDirectory, limit: photoCacheLimit)
            for (photo, hash) in zip(photos, hashes) {
                cache.keep(moving: staging.fileURL(of: photo), as: PhotoCache.storedName(hash: hash, format: photo.format))
            }
        }
        staging?.discard()
        return captureID
    }

    // MARK: - Photos

    /// The photo `storedName` (`<sha256>.<ext>`) as a file in this host's cache, fetched from
    /// the server when the cache does not have it (written atomically; the schema checks each
    /// photo against its hash); the cache is then trimmed to ``photoCacheLimit``, least
    /// recently used first.
    public func photoFile(storedName: String) throws(StorageError) -> URL {
        try asking { session throws(StorageError) in try cachedFile(storedName, session) }
    }

    /// The photo `storedName` in this host's cache, fetched through `session` when it is not.
    private func cachedFile(_ storedName: String, _ session: any StatementSession) throws(StorageError) -> URL {
        guard let hash = PhotoCache.hash(ofStoredName: storedName) else {
            throw .notAStoredPhoto(storedName)
        }
        let cache = PhotoCache(directory: media.mediaDirectory, limit: photoCacheLimit)
        if let cached = cache.hit(storedName) { return cached }
        let content = try session.first("SELECT content FROM photo_content WHERE sha256 = decode(\(hash), 'hex')") {
            row throws(StorageError) in try row.data(0)
        }
        guard let content else {
            throw .fileSystem("The photo \(storedName) is no longer in the database.")
        }
        return try cache.store(content, as: storedName)
    }
}
