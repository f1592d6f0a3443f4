import Foundation
import Logging
import PostgresNIO
import Storage

/// What `tabshell doctor` learns of a PostgreSQL store without changing it: nothing is
/// created or migrated. Each finding is a sentence; `problems` are what needs fixing.
public struct PostgresExamination: Sendable {
    /// The store's address (never with a password).
    public var address: String
    /// The server's version, when it answered.
    public var serverVersion: String?
    /// Why it could not be reached or read; nil when it could.
    public var openError: String?
    /// The schema versions applied, oldest first (empty for a store tabshell never used).
    public var applied: [String] = []
    /// Versions this build would still apply.
    public var pending: [String] = []
    public var compatibility: PostgresSchemaCompatibility = .compatible
    public var requests = 0
    public var records = 0
    public var photoContents = 0
    /// Photos read and checked against their hash, and those that failed.
    public var photosChecked = 0
    public var photosDamaged: [String] = []
    /// Whether this connection listened for changes (LISTEN is how other hosts' commits appear).
    public var canListen = false

    /// Connects to `location` and reads: reachable, schema version, counts, and photos readable
    /// (their content hashed again by the server: the newest 100, or every one with `allPhotos`).
    public static func examine(_ location: PostgresLocation, allPhotos: Bool, logger: Logger = Logger(label: "tabshell.doctor"))
        -> PostgresExamination
    {
        var found = PostgresExamination(address: location.address)
        let pool: PostgresPool
        do {
            pool = try PostgresPool(location: location, maximumConnections: 1, answerTimeout: .seconds(30), logger: logger)
        } catch {
            found.openError = error.message
            return found
        }
        defer { pool.close() }
        do {
            let migrator = PostgresMigrator()
            found.compatibility = try migrator.compatibility(pool)
            found.applied = try migrator.appliedIdentifiers(pool)
            found.pending = migrator.migrations.map(\.identifier).filter { !found.applied.contains($0) }
            try pool.withConnection { session throws(StorageError) in
                found.serverVersion = try session.value("SHOW server_version", as: String.self)
                guard found.compatibility == .compatible, found.pending.isEmpty else { return }
                found.requests = try session.value("SELECT count(*) FROM request", as: Int.self) ?? 0
                found.records = try session.value("SELECT count FROM capture_count WHERE id = 1", as: Int.self) ?? 0
                found.photoContents = try session.value("SELECT count(*) FROM photo_content", as: Int.self) ?? 0
                let limit = allPhotos ? Int64.max : 100
                let damaged = try session.rows(
                    """
                    SELECT encode(sha256, 'hex'), sha256 = sha256(content) AND byte_size = octet_length(content)
                    FROM (SELECT sha256, content, byte_size FROM photo_content ORDER BY created_at DESC LIMIT \(limit)) AS newest
                    """)
                found.photosChecked = damaged.count
                found.photosDamaged = damaged.compactMap { row in
                    guard let (hash, intact) = try? row.decode((String, Bool).self) else { return "?" }
                    return intact ? nil : hash
                }
                try session.execute("LISTEN tabshell_doctor")
                try session.execute("UNLISTEN tabshell_doctor")
                found.canListen = true
            }
        } catch {
            found.openError = error.message
        }
        return found
    }
}
