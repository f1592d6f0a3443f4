import Foundation
import PostgresNIO
import Scanning
import Storage
import TestSupport
import Testing

@testable import PostgresStorage

@Suite("PostgreSQL query plans", .serialized, .tags(.postgres))
struct QueryPlanTests {
    @Test func pagedReadsUseIndexesAtFiftyThousandRecords() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        try SeededStore.seed(pool, captures: 50_000)
        #expect(try pool.int("SELECT count FROM capture_count") == 50_000)

        for read in SeededStore.pagedReads(captures: 50_000) {
            let plan = try pool.withConnection { session throws(StorageError) in
                try PostgresPlan.explain(read.query, in: session)
            }
            #expect(plan.sequentiallyScannedTables.isEmpty, "\(read.name) reads a table whole:\n\(plan)")
            if !read.indexes.isEmpty {
                #expect(!plan.indexes.isDisjoint(with: read.indexes), "\(read.name) uses none of \(read.indexes.sorted()):\n\(plan)")
            }
            print("plan of \(read.name): \(plan.indexes.sorted().joined(separator: ", "))")
        }
    }

    @Test func theWholeStoreSearchGoesThroughTheSearchIndex() throws {
        // tabshell_search_newest's plan is its own (a function scan from outside): its
        // statement, planned with the function's settings, reads the GIN index.
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        try SeededStore.seed(pool, captures: 50_000)
        let settings = try pool.strings(
            "SELECT array_to_string(proconfig, ',') FROM pg_proc WHERE proname = 'tabshell_search_newest'")
        #expect(settings == ["enable_seqscan=off,enable_indexscan=off"])
        try pool.withConnection { session throws(StorageError) in
            try session.execute("SET enable_seqscan = off")
            try session.execute("SET enable_indexscan = off")
            for search in SeededStore.searches(captures: 50_000) {
                let query = PostgresQuery.bound(
                    """
                    SELECT id FROM capture WHERE search_vector @@ to_tsquery('tabshell_search', $1)
                    ORDER BY created_at DESC, id DESC LIMIT 50
                    """, PostgresQueries.tsquery(search.text) ?? "")
                let plan = try PostgresPlan.explain(query, in: session)
                #expect(plan.indexes == ["capture_on_search_vector"], "\(search.name):\n\(plan)")
                #expect(plan.sequentiallyScannedTables.isEmpty, "\(search.name):\n\(plan)")
            }
        }
    }

    @Test func searchInTwoStepsFindsTheNewestMatchesWhereverTheyAre() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        try SeededStore.seed(pool, captures: 30_000)
        for search in SeededStore.searches(captures: 30_000) + [("nothing", "zzz"), ("a note's start", "no"), ("a batch's code", "4006381333931")] {
            let (found, expected) = try pool.withConnection { session throws(StorageError) in
                let found = try SeededStore.search(search.text, in: session)
                // The same answer by brute force: every capture's words, newest first.
                let expected = try session.rows(
                    .bound(
                        """
                        SELECT id FROM capture
                        WHERE to_tsvector('tabshell_search', tabshell_search_units(tabshell_search_words(concat_ws(' ', barcode, note,
                            (SELECT title FROM request WHERE id = request_id), captured_by, product_name, product_brand,
                            (SELECT string_agg(barcode, ' ' ORDER BY position) FROM capture_line WHERE capture_id = capture.id)))))
                            @@ to_tsquery('tabshell_search', $1)
                        ORDER BY created_at DESC, id DESC LIMIT 50
                        """, PostgresQueries.tsquery(search.text) ?? "")
                ).map { row throws(StorageError) in
                    do { return try row.decode(Int64.self) } catch { throw StorageError.sql("\(error)") }
                }
                return (found, expected)
            }
            #expect(found == expected, "\(search.name)")
        }
        #expect(try pool.withConnection { session throws(StorageError) in try SeededStore.search("!?", in: session) }.isEmpty)
    }

    @Test func pagedReadsCanUseIndexesOnAnEmptyStore() throws {
        // On a few rows the planner rightly prefers reading tables whole; with sequential scans
        // made a last resort it shows each statement has an index to go by.
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        try pool.withConnection { session throws(StorageError) in
            try session.execute("SET enable_seqscan = off")
            for read in SeededStore.pagedReads(captures: 50_000) {
                let plan = try PostgresPlan.explain(read.query, in: session)
                #expect(plan.sequentiallyScannedTables.isEmpty, "\(read.name) has no index to go by:\n\(plan)")
            }
            try session.execute("RESET enable_seqscan")
        }
    }

    @Test func thePlanReaderFindsSequentialScansAndIndexes() {
        let plan = PostgresPlan(lines: [
            "Limit  (cost=0.29..10.20 rows=50 width=120)",
            "  ->  Nested Loop Left Join  (cost=0.29..1000.00 rows=5000 width=120)",
            "        ->  Index Scan using capture_on_created_at_id on capture  (cost=0.29..500.00 rows=5000 width=80)",
            "        ->  Index Only Scan Backward using request_pkey on request  (cost=0.28..0.30 rows=1 width=40)",
            "        ->  Bitmap Index Scan on capture_on_search_vector  (cost=0.00..12.00 rows=10 width=0)",
            "        SubPlan 1",
            "          ->  Seq Scan on capture_photo  (cost=0.00..1.01 rows=1 width=8)",
        ])
        #expect(plan.sequentiallyScannedTables == ["capture_photo"])
        #expect(plan.indexes == ["capture_on_created_at_id", "request_pkey", "capture_on_search_vector"])
        #expect(plan.readsByIndexOnly("capture"))
        #expect(!plan.readsByIndexOnly("capture_photo"))
    }

    @Test func searchQueriesAreWordPrefixesAndNeverSyntax() {
        #expect(PostgresQueries.tsquery("pal she") == "'pal':* & 'she':*")
        #expect(PostgresQueries.tsquery("  réc-12/ab ") == "'réc':* & '12':* & 'ab':*")
        #expect(PostgresQueries.tsquery("a' | !b & (c) <-> d:*") == "'a':* & 'b':* & 'c':* & 'd':*")
        #expect(PostgresQueries.tsquery("— “ ” !") == nil)
        #expect(PostgresQueries.tsquery("東京") == "('東' <-> '京')")
        #expect(PostgresQueries.tsquery("Pallet東京 市場 op") == "('Pallet' <-> '東' <-> '京') & ('市' <-> '場') & 'op':*")
        #expect(PostgresQueries.tsquery("東京op 場") == "('東' <-> '京' <-> 'op':*) & '場'")
        #expect(PostgresQueries.tsquery("กัน") == "('ก' <-> 'น')")
        #expect(PostgresQueries.searchRecent("", limit: 10) == nil)
        #expect(PostgresQueries.searchAll(" - ", limit: 10) == nil)
        let many = (1...40).map { "w\($0)" }.joined(separator: " ")
        #expect(PostgresQueries.tsquery(many)?.components(separatedBy: " & ").count == SearchText.maximumQueryUnits)
    }
}
