import PostgresNIO
import Storage

/// Brings a PostgreSQL store's schema up to date, once, however many processes (on however
/// many hosts) start together.
///
/// Each pending migration runs in its own transaction that first takes a transaction-level
/// advisory lock (`pg_advisory_xact_lock`, one key for tabshell, per database) and then reads
/// which migrations are applied: the first process applies it, the others wait for the lock
/// and find it done. The lock goes with the transaction's end, even if the process dies.
///
/// Before anything is written, the store is inspected (``PostgresSchemaCompatibility``): a
/// store migrated by a newer tabshell, or a database with tables named like tabshell's but no
/// migrations table of tabshell's, is refused in one sentence and left untouched.
public struct PostgresMigrator: Sendable {
    /// The table that records which migrations are applied.
    public static let table = "tabshell_migration"  // sql-fragment
    /// The advisory lock's key: "tabshell" in ASCII.
    public static let lockKey: Int64 = 0x7461_6273_6865_6C6C

    /// The migrations this build knows, in order.
    public let migrations: [PostgresMigration]

    /// tabshell's migrations.
    public init() {
        migrations = PostgresMigrations.all
    }

    /// A chosen history (tests).
    init(migrations: [PostgresMigration]) {
        self.migrations = migrations
    }

    /// Applies what is pending and returns the identifiers this call applied (empty when
    /// another process had applied everything).
    ///
    /// - Throws: ``StorageError/newerSchema(path:version:)`` for a store of a newer tabshell,
    ///   ``StorageError/cannotOpen(path:reason:)`` for another program's tables, a sentence
    ///   naming the migration for a failed one (nothing of it is kept), or the connection's
    ///   failure.
    @discardableResult
    public func migrate(_ pool: PostgresPool) throws(StorageError) -> [String] {
        try pool.withConnection { session throws(StorageError) in
            try refuseIncompatible(try inspect(session), location: session.location)
            var applied: [String] = []
            for migration in migrations {
                let didApply = try session.transaction { session throws(StorageError) -> Bool in
                    try session.execute(.bound("SELECT pg_advisory_xact_lock($1)", Self.lockKey))
                    try session.execute(
                        PostgresQuery(
                            unsafeSQL: """
                                CREATE TABLE IF NOT EXISTS \(Self.table) (
                                    identifier text PRIMARY KEY,
                                    applied_at timestamptz NOT NULL DEFAULT now()
                                )
                                """))
                    // Read again under the lock: another process may have migrated meanwhile,
                    // possibly a newer tabshell.
                    let state = try inspect(session)
                    try refuseIncompatible(state, location: session.location)
                    if try appliedIdentifiers(session).contains(migration.identifier) { return false }
                    for (index, statement) in migration.statements.enumerated() {
                        do throws(StorageError) {
                            try session.execute(PostgresQuery(unsafeSQL: statement))
                        } catch {
                            // The server refused it: name the migration and the statement. A lost
                            // connection is reported as such.
                            guard let reason = Self.refusal(error) else { throw error }
                            throw .sql(
                                "Migrating the PostgreSQL store \(session.location.address) to \(migration.identifier) failed at "
                                    + "statement \(index + 1): \(reason).")
                        }
                    }
                    try session.execute(.bound("INSERT INTO tabshell_migration (identifier) VALUES ($1)", migration.identifier))
                    return true
                }
                if didApply { applied.append(migration.identifier) }
            }
            return applied
        }
    }

    /// The applied migrations' identifiers, oldest first (empty for a store never migrated).
    public func appliedIdentifiers(_ pool: PostgresPool) throws(StorageError) -> [String] {
        try pool.withConnection { session throws(StorageError) in try appliedIdentifiers(session) }
    }

    /// What this build may do with the store at `pool`, without writing to it.
    public func compatibility(_ pool: PostgresPool) throws(StorageError) -> PostgresSchemaCompatibility {
        try pool.withConnection { session throws(StorageError) in try inspect(session) }
    }

    // MARK: - Inside a connection

    func appliedIdentifiers(_ session: PostgresSession) throws(StorageError) -> [String] {
        guard try tableExists(Self.table, session) else { return [] }
        return try session.rows("SELECT identifier FROM tabshell_migration ORDER BY applied_at, identifier").map {
            row throws(StorageError) in
            do {
                return try row.decode(String.self)
            } catch {
                throw .sql("The PostgreSQL store \(session.location.address) has an unreadable migration row.")
            }
        }
    }

    func inspect(_ session: PostgresSession) throws(StorageError) -> PostgresSchemaCompatibility {
        guard try tableExists(Self.table, session) else {
            // Tables of tabshell's names without its migrations table: another program's.
            let ours = ["request", "capture", "settings", "photo_content", "capture_photo"]
            for name in ours where try tableExists(name, session) {
                return .foreign(table: name)
            }
            return .compatible
        }
        return PostgresSchemaCompatibility(applied: try appliedIdentifiers(session), known: migrations.map(\.identifier))
    }

    private func tableExists(_ name: String, _ session: PostgresSession) throws(StorageError) -> Bool {
        // to_regclass follows the search_path, as the statements themselves do.
        try session.value(.bound("SELECT to_regclass($1) IS NOT NULL", name), as: Bool.self) ?? false
    }

    private func refuseIncompatible(_ state: PostgresSchemaCompatibility, location: PostgresLocation) throws(StorageError) {
        switch state {
        case .compatible: return
        case let .newer(version): throw .newerSchema(path: location.address, version: version)
        case let .foreign(table):
            throw .cannotOpen(
                path: location.address,
                reason: "it holds a table named \(table) but no \(Self.table) table, so it is another program's database")
        }
    }

    /// The server's reason for refusing a statement (``StorageError/statement(_:at:)``'s
    /// sentence without its prefix), or nil for any other failure.
    private static func refusal(_ error: StorageError) -> String? {
        let message = error.message
        guard let range = message.range(of: " refused a statement: ") else { return nil }
        return PostgresFailure.sentencePart(String(message[range.upperBound...]))
    }
}

/// Whether this build of tabshell may open (and migrate) a PostgreSQL store; the counterpart
/// of Storage's `SchemaCompatibility` for SQLite files.
public enum PostgresSchemaCompatibility: Equatable, Sendable {
    /// Never migrated, or migrated by this build or an older one.
    case compatible
    /// Migrated by a newer tabshell; `version` is its newest schema version.
    case newer(version: String)
    /// Tables named like tabshell's (`table` is one) without tabshell's migrations table.
    case foreign(table: String)

    init(applied: [String], known: [String]) {
        let unknown = Set(applied).subtracting(known)
        self = unknown.isEmpty ? .compatible : .newer(version: SchemaValues.newestVersion(of: unknown))
    }
}
