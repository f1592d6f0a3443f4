import Foundation
import PostgresStorage
import Storage
import TestSupport
import Testing

/// The storage core's rules on PostgreSQL: the kinds' CHECK lists as SQLite's
/// schema names them (from `SchemaValues`, pinned here as the migration shipped them), and no
/// media sweep, because this engine's media folder is only a cache.
@Suite("PostgreSQL and the storage core", .serialized, .tags(.postgres))
struct CoreRulesTests {
    @Test func theKindChecksAreTheShippedOnes() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let checks = try pool.strings(
            """
            SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
            WHERE conname IN ('capture_kind_check', 'request_kind_check') ORDER BY conname
            """)
        #expect(
            checks == [
                "capture_kind_check CHECK ((kind = ANY (ARRAY['barcode'::text, 'photos'::text, 'product'::text, 'note'::text, 'batch'::text])))",
                "request_kind_check CHECK ((kind = ANY (ARRAY['barcode'::text, 'photos'::text, 'product'::text, 'note'::text])))",
            ])
    }

    /// Recovery leaves the photo cache alone: a file there that no row names is a cached copy,
    /// not a photo an interrupted Done left behind.
    @Test func recoveryDoesNotSweepThePhotoCache() throws {
        let scratch = try ScratchDatabase()
        let folder = try TemporaryFolder(prefix: "CoreRules")
        let postgres = try PostgresStore.open(scratch.location, folder: folder.url, listen: false)
        defer { postgres.close() }
        let store: any RecordStore = postgres
        #expect(!(store is any MediaSweeping))
        try FileManager.default.createDirectory(at: store.media.mediaDirectory, withIntermediateDirectories: true)
        let cached = store.media.mediaDirectory.appendingPathComponent("cached.png")
        #expect(FileManager.default.createFile(atPath: cached.path, contents: Data([1, 2, 3])))
        let report = try store.recover(graceSeconds: 0, now: Date().addingTimeInterval(60))
        #expect(report.quarantinedFiles == 0)
        #expect(FileManager.default.fileExists(atPath: cached.path))
    }
}
