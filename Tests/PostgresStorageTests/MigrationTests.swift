import Domain
import Foundation
import PostgresNIO
import Storage
import TestSupport
import Testing

@testable import PostgresStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sentence `body` fails with.
private func failure<T>(_ body: () throws(StorageError) -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.message
    }
}

extension PostgresMigrator {
    /// The schema version: the newest applied migration this build knows, or the newest
    /// unknown one for a newer store; nil for a store never migrated.
    func version(_ pool: PostgresPool) throws(StorageError) -> String? {
        let applied = try appliedIdentifiers(pool)
        let unknown = Set(applied).subtracting(migrations.map(\.identifier))
        if !unknown.isEmpty { return SchemaValues.newestVersion(of: unknown) }
        return migrations.last { applied.contains($0.identifier) }?.identifier
    }
}

extension PostgresPool {
    /// The first column of every row as strings (tests' reads of the catalogue).
    func strings(_ sql: String) throws -> [String] {
        try withConnection { session throws(StorageError) in
            try session.rows(PostgresQuery(unsafeSQL: sql)).map { row throws(StorageError) in
                do { return try row.decode(String?.self) ?? "NULL" } catch { throw StorageError.sql("\(error)") }
            }
        }
    }

    func execute(_ sql: String) throws {
        try withConnection { session throws(StorageError) in try session.execute(PostgresQuery(unsafeSQL: sql)) }
    }

    func int(_ sql: String) throws -> Int? {
        try withConnection { session throws(StorageError) in try session.value(PostgresQuery(unsafeSQL: sql), as: Int.self) }
    }
}

/// Every table, column, index, constraint, function and trigger of the public schema, as text:
/// two equal fingerprints mean the same schema.
private func schemaFingerprint(_ pool: PostgresPool) throws -> [String] {
    try pool.strings(
        """
        SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
            || ' ' || coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = 'public'
        UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
        UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(oid)
            FROM pg_constraint WHERE connamespace = 'public'::regnamespace
        UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
        UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
        ORDER BY 1
        """)
}

/// Holds tabshell's migration lock in `database` while `start` launches migrators, until
/// `count` of them wait for it (so they are known to run at the same time), then lets them go.
/// Throws when they do not all queue up within a minute.
private func holdingTheMigrationLock(
    of scratch: ScratchDatabase, until count: Int, whileStarting start: () throws -> Void
) throws {
    let holder = try scratch.pool(maximumConnections: 1)
    let watcher = try scratch.pool(maximumConnections: 1)
    defer {
        holder.close()
        watcher.close()
    }
    var waiting = 0
    var failure: (any Error)?
    try holder.transaction { session throws(StorageError) in
        try session.execute("SELECT pg_advisory_xact_lock(\(PostgresMigrator.lockKey))")
        do {
            try start()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                waiting =
                    try watcher.int(
                        """
                        SELECT count(*)::int FROM pg_locks
                        WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                        """) ?? 0
                if waiting >= count { break }
                usleep(20_000)
            }
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
    guard waiting >= count else {
        throw TestFailure("Only \(waiting) of \(count) migrators waited for the migration lock within a minute.")
    }
}

@Suite("PostgreSQL schema and migrations", .serialized, .tags(.postgres))
struct MigrationTests {

    @Test func migratesAnEmptyDatabase() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        let migrator = PostgresMigrator()
        #expect(try migrator.version(pool) == nil)
        #expect(try migrator.compatibility(pool) == .compatible)

        let applied = try migrator.migrate(pool)

        #expect(applied == ["v1", "v2", "v3", "v4"])
        #expect(try migrator.version(pool) == "v4")
        #expect(try migrator.appliedIdentifiers(pool) == ["v1", "v2", "v3", "v4"])
        let tables = try pool.strings("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
        #expect(
            tables == [
                "capture", "capture_count", "capture_element", "capture_line", "capture_photo", "photo_content", "product",
                "request", "request_count", "settings", "tabshell_migration",
            ])
        #expect(try pool.int("SELECT count FROM capture_count WHERE id = 1") == 0)
    }

    @Test func runningAgainChangesNothing() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let before = try schemaFingerprint(pool)
        #expect(before.count > 50)

        let applied = try PostgresMigrator().migrate(pool)

        #expect(applied.isEmpty)
        #expect(try schemaFingerprint(pool) == before)
        #expect(try pool.int("SELECT count(*)::int FROM tabshell_migration") == PostgresMigrations.all.count)
    }

    @Test func eightMigratorsInOneProcessApplyEachMigrationOnce() throws {
        let scratch = try ScratchDatabase()
        let location = scratch.location
        let results = Results()
        let group = DispatchGroup()
        // Each on a thread of its own (not Dispatch's pool, which may run fewer at once).
        try holdingTheMigrationLock(of: scratch, until: 8) {
            for _ in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    do {
                        let pool = try PostgresPool(location: location, maximumConnections: 1)
                        defer { pool.close() }
                        results.append(.success(try PostgresMigrator().migrate(pool)))
                    } catch {
                        results.append(.failure("\(error)"))
                    }
                }
            }
        }
        group.wait()

        let all = results.all
        #expect(all.count == 8)
        #expect(all.compactMap(\.failure).isEmpty, "\(all.compactMap(\.failure))")
        // Each migration takes the lock on its own, so one migrator may apply some and another
        // the rest: each once, whoever it was.
        #expect(all.flatMap { $0.applied ?? [] }.sorted() == ["v1", "v2", "v3", "v4"])
        let pool = try scratch.pool()
        defer { pool.close() }
        #expect(try PostgresMigrator().appliedIdentifiers(pool) == ["v1", "v2", "v3", "v4"])
    }

    @Test(.timeLimit(.minutes(3)))
    func eightProcessesStartingTogetherMigrateOnce() throws {
        let scratch = try ScratchDatabase()
        let folder = try TemporaryFolder()
        let start = folder.path + "/start"
        let journal = folder.path + "/journal"
        let server = try TestServer.url()
        let slash = try #require(server.lastIndex(of: "/"))
        let url = server[..<slash] + "/" + scratch.name
        var workers: [ChildProcess] = []
        try holdingTheMigrationLock(of: scratch, until: 8) {
            for _ in 0..<8 {
                workers.append(
                    try TestWorker.migration.spawn(
                        environment: [
                            TestWorker.Variable.migrationURL: String(url), TestWorker.Variable.migrationJournal: journal,
                            TestWorker.Variable.migrationStart: start,
                        ],
                        outputPath: folder.path + "/workers.log"))
            }
            _ = FileManager.default.createFile(atPath: start, contents: Data())
        }
        var endings: [ChildProcess.Ending] = []
        for worker in workers {
            while worker.poll() == nil { usleep(5_000) }
            endings.append(worker.poll() ?? .exited(-1))
        }

        #expect(endings.allSatisfy { $0 == .exited(0) }, "\(endings)")
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("error") }.isEmpty, "\(lines)")
        let applied = lines.filter { $0.hasPrefix("applied ") }.flatMap { $0.dropFirst("applied ".count).split(separator: ",").map(String.init) }
        #expect(applied.sorted() == ["v1", "v2", "v3", "v4"], "\(lines)")
        let pool = try scratch.pool()
        defer { pool.close() }
        #expect(try PostgresMigrator().appliedIdentifiers(pool) == ["v1", "v2", "v3", "v4"])
    }

    @Test func aStoreOfANewerTabshellIsRefusedAndLeftAlone() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        let older = PostgresMigrator(migrations: [PostgresMigrations.v1])
        try PostgresMigrator(
            migrations: PostgresMigrations.all + [PostgresMigration(identifier: "v99", statements: ["CREATE TABLE future (x int)"])]
        ).migrate(pool)
        let before = try schemaFingerprint(pool)

        let sentence = failure { () throws(StorageError) in try older.migrate(pool) }

        #expect(
            sentence
                == "The database postgres://\(scratch.location.user)@\(scratch.location.server)/\(scratch.name) was made by a newer tabshell (schema v99); upgrade tabshell."
        )
        #expect(try older.compatibility(pool) == .newer(version: "v99"))
        #expect(try older.version(pool) == "v99")
        #expect(try schemaFingerprint(pool) == before)
    }

    @Test func anotherProgramsTablesAreRefusedAndLeftAlone() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try pool.execute("CREATE TABLE capture (frame bytea)")

        let sentence = failure { () throws(StorageError) in try PostgresMigrator().migrate(pool) }

        #expect(
            sentence
                == "Cannot open \(scratch.location.address): it holds a table named capture but no tabshell_migration table, so it is another program's database."
        )
        #expect(try pool.strings("SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == ["capture"])
    }

    @Test func aFailedMigrationLeavesNothingOfItself() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        let broken = PostgresMigrator(migrations: [
            PostgresMigrations.v1,
            PostgresMigration(identifier: "v2", statements: ["CREATE TABLE half (x int)", "ALTER TABLE nowhere ADD COLUMN y int"]),
        ])

        let sentence = failure { () throws(StorageError) in try broken.migrate(pool) }

        #expect(
            sentence
                == "Migrating the PostgreSQL store \(scratch.location.address) to v2 failed at statement 2: relation \"nowhere\" does not exist."
        )
        #expect(try PostgresMigrator().appliedIdentifiers(pool) == ["v1"])
        #expect(try pool.int("SELECT count(*)::int FROM pg_tables WHERE tablename = 'half'") == 0)
    }

    // MARK: - What the schema promises

    @Test func identicalPhotosAreStoredOnceAndGoWithTheirLastRecord() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let photo = "'\\x89504e470d0a1a0a'::bytea"
        try pool.execute(
            """
            INSERT INTO photo_content (sha256, content, byte_size, format, pixel_width, pixel_height)
            VALUES (sha256(\(photo)), \(photo), 8, 'png', 1, 1)
            """)
        try pool.execute("INSERT INTO capture (id, kind, created_at) VALUES (1, 'photos', now()), (2, 'photos', now())")
        try pool.execute(
            """
            INSERT INTO capture_photo (capture_id, position, sha256, original_name)
            VALUES (1, 0, sha256(\(photo)), 'shelf.png'), (2, 0, sha256(\(photo)), 'same.png')
            """)
        #expect(try pool.int("SELECT count(*)::int FROM photo_content") == 1)

        try pool.execute("DELETE FROM capture WHERE id = 1")
        #expect(try pool.int("SELECT count(*)::int FROM photo_content") == 1)
        try pool.execute("DELETE FROM capture WHERE id = 2")
        #expect(try pool.int("SELECT count(*)::int FROM photo_content") == 0)
        #expect(try pool.int("SELECT count FROM capture_count") == 0)
    }

    @Test func aPhotoIsKeyedByTheHashOfItsBytes() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let sentence = failure { () throws(StorageError) in
            try pool.withConnection { session throws(StorageError) in
                try session.execute(
                    """
                    INSERT INTO photo_content (sha256, content, byte_size, format, pixel_width, pixel_height)
                    VALUES (sha256('\\x00'::bytea), '\\x01'::bytea, 1, 'png', 1, 1)
                    """)
            }
        }
        #expect(sentence?.contains("violates check constraint \"photo_content_check1\"") == true, "\(sentence ?? "")")
        let wrongSize = failure { () throws(StorageError) in
            try pool.withConnection { session throws(StorageError) in
                try session.execute(
                    """
                    INSERT INTO photo_content (sha256, content, byte_size, format, pixel_width, pixel_height)
                    VALUES (sha256('\\x01'::bytea), '\\x01'::bytea, 2, 'png', 1, 1)
                    """)
            }
        }
        #expect(wrongSize?.contains("violates check constraint \"photo_content_check\"") == true, "\(wrongSize ?? "")")
    }

    @Test func theSchemaRefusesWhatSQLitesRefuses() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let refused = [
            "INSERT INTO request (title, kind, created_at) VALUES ('   ', 'note', now())",
            "INSERT INTO request (title, kind, created_at) VALUES ('Count', 'batch', now())",
            "INSERT INTO capture (kind, barcode, created_at) VALUES ('barcode', '123', now())",
            "INSERT INTO capture (kind, created_at, input_source) VALUES ('note', now(), 'telepathy')",
            "INSERT INTO capture (kind, created_at, captured_by) VALUES ('note', now(), '')",
            "INSERT INTO settings (id, snap_back_target, capture_gating, tab_bar_position, color_enabled, auto_advance_milliseconds, allow_free_text_codes) VALUES (2, 'history', true, 'top', true, 0, false)",
            "INSERT INTO settings (id, snap_back_target, capture_gating, tab_bar_position, color_enabled, auto_advance_milliseconds, allow_free_text_codes) VALUES (1, 'history', true, 'top', true, 60001, false)",
        ]
        for statement in refused {
            let sentence = failure { () throws(StorageError) in
                try pool.withConnection { session throws(StorageError) in try session.execute(PostgresQuery(unsafeSQL: statement)) }
            }
            #expect(sentence?.contains("violates check constraint") == true, "\(statement): \(sentence ?? "accepted")")
        }
        try pool.execute("INSERT INTO capture (kind, barcode, symbology, created_at) VALUES ('batch', '4006381333931', 'ean13', now())")
        try pool.execute(
            "INSERT INTO settings (id, snap_back_target, capture_gating, tab_bar_position, color_enabled, auto_advance_milliseconds, allow_free_text_codes) VALUES (1, 'history', true, 'top', true, 1500, false)"
        )
        #expect(try pool.strings("SELECT photo_previews || ' ' || maximum_photos || ' ' || maximum_photo_bytes FROM settings") == ["automatic 3 52428800"])
    }

    @Test func searchFindsWordStartsWithoutCaseOrAccents() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        try pool.execute("INSERT INTO request (id, title, kind, created_at) VALUES (7, 'Réception quai 3', 'barcode', now())")
        try pool.execute(
            """
            INSERT INTO capture (id, kind, barcode, symbology, note, request_id, created_at, captured_by) VALUES
                (1, 'barcode', '4006381333931', 'ean13', 'Pallet on shelf/12, see a.b@example.org', 7, now(), 'ana'),
                (2, 'note', NULL, NULL, 'Straße “Élan”—version 1.5', NULL, now(), 'bo')
            """)
        func matches(_ text: String) throws -> [String] {
            guard let query = PostgresQueries.tsquery(text) else { return [] }
            return try pool.withConnection { session throws(StorageError) in
                try session.rows(
                    "SELECT id::text FROM capture WHERE search_vector @@ to_tsquery('tabshell_search', \(query)) ORDER BY id"
                ).map { row throws(StorageError) in
                    do { return try row.decode(String.self) } catch { throw StorageError.sql("\(error)") }
                }
            }
        }
        #expect(try matches("4006") == ["1"])
        #expect(try matches("pal SHE") == ["1"])
        #expect(try matches("12") == ["1"])
        #expect(try matches("example") == ["1"])
        #expect(try matches("recep") == ["1"])
        #expect(try matches("réc") == ["1"])
        #expect(try matches("quai 3") == ["1"])
        #expect(try matches("strasse") == ["2"])
        #expect(try matches("elan") == ["2"])
        #expect(try matches("5") == ["2"])
        #expect(try matches("an") == ["1"])
        #expect(try matches("allet") == [])
        #expect(try matches("pal elan") == [])
        #expect(try matches("“ — ") == [])

        // A request's new title is searchable at once; a deleted request's is gone.
        try pool.execute("UPDATE request SET title = 'Inventaire' WHERE id = 7")
        #expect(try matches("inv") == ["1"])
        #expect(try matches("recep") == [])
        try pool.execute("DELETE FROM request WHERE id = 7")
        #expect(try matches("inv") == [])
        #expect(try matches("pallet") == ["1"])
    }

    @Test func v4IndexesTheBatchesAndNotesAlreadyThere() throws {
        // Given a store at v3 with a batch, a Japanese note and a plain one
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try PostgresMigrator(migrations: Array(PostgresMigrations.all.prefix(3))).migrate(pool)
        try pool.execute(
            """
            INSERT INTO capture (id, kind, note, created_at) VALUES
                (1, 'batch', NULL, now()), (2, 'note', '東京の市場', now()), (3, 'note', 'shelf 7', now())
            """)
        try pool.execute("INSERT INTO capture_line (capture_id, position, barcode, symbology, quantity) VALUES (1, 0, '96385074', 'ean8', 1)")
        func matches(_ text: String) throws -> [String] {
            guard let query = PostgresQueries.tsquery(text) else { return [] }
            return try pool.withConnection { session throws(StorageError) in
                try session.rows(
                    "SELECT id::text FROM capture WHERE search_vector @@ to_tsquery('tabshell_search', \(query)) ORDER BY id"
                ).map { row throws(StorageError) in
                    do { return try row.decode(String.self) } catch { throw StorageError.sql("\(error)") }
                }
            }
        }
        #expect(try matches("96385074") == [])
        #expect(try matches("市場") == [])

        // When v4 is applied
        #expect(try PostgresMigrator().migrate(pool) == ["v4"])

        // Then both are found, and what did not change is as it was
        #expect(try matches("96385074") == ["1"])
        #expect(try matches("市場") == ["2"])
        #expect(try matches("京の") == ["2"])
        #expect(try matches("shel") == ["3"])
    }

    @Test func theUnitsFunctionSpellsOutStoragesTables() {
        // v4 is frozen; Storage's SearchText must keep saying what it indexed.
        let units = PostgresMigrations.v4.statements[0]
        #expect(units.contains("'" + SearchText.postgresMarkClass + "'"))
        #expect(units.contains("'" + SearchText.postgresUnspacedClass + "'"))
        #expect(PostgresMigrations.v4.statements.last?.contains("'" + SearchText.postgresUnspacedClass + "'") == true)
    }
}

/// What each concurrent migrator returned.
final class Results: @unchecked Sendable {
    enum Result {
        case success([String])
        case failure(String)
        var applied: [String]? { if case let .success(applied) = self { applied } else { nil } }
        var failure: String? { if case let .failure(sentence) = self { sentence } else { nil } }
    }
    private let lock = NSLock()
    private var results: [Result] = []
    func append(_ result: Result) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }
    var all: [Result] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
