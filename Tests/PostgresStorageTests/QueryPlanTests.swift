import Foundation
import PostgresNIO
import Storage
import Testing

@testable import PostgresStorage

/// 50,000 captures (a fifth of each kind, half answering one of 2,000 requests, a tenth with
/// "pallet" in the note, 5,000 with a photo, 10,000 batches of three lines), then ANALYZE: enough
/// rows for the planner's own statistics to prefer an index wherever one serves.
// sql-fragment
private let seed = [
    """
    INSERT INTO request (id, title, kind, status, created_at)
    SELECT g, 'Request ' || g || CASE WHEN g % 3 = 0 THEN ' pallet' ELSE ' shelf' END, 'barcode',
           CASE WHEN g % 4 = 0 THEN 'pending' ELSE 'done' END, timestamptz '2025-01-01' + g * interval '1 hour'
    FROM generate_series(1, 2000) g
    """,
    "SELECT setval(pg_get_serial_sequence('request', 'id'), 2000)",
    """
    INSERT INTO capture (id, kind, barcode, symbology, note, request_id, created_at, captured_by)
    SELECT g, (ARRAY['barcode','photos','product','note','batch'])[1 + g % 5],
           CASE WHEN g % 5 IN (0, 2, 4) THEN (4006381333931 + g)::text END,
           CASE WHEN g % 5 IN (0, 2, 4) THEN 'ean13' END,
           'note ' || md5(g::text) || CASE WHEN g % 10 = 0 THEN ' pallet' ELSE '' END,
           CASE WHEN g % 2 = 0 THEN 1 + g % 2000 END,
           timestamptz '2025-01-01' + g * interval '1 minute', 'person' || (g % 7)
    FROM generate_series(1, 50000) g
    """,
    "SELECT setval(pg_get_serial_sequence('capture', 'id'), 50000)",
    """
    INSERT INTO photo_content (sha256, content, byte_size, format, pixel_width, pixel_height)
    SELECT sha256(convert_to('photo ' || g, 'UTF8')), convert_to('photo ' || g, 'UTF8'),
           octet_length(convert_to('photo ' || g, 'UTF8')), 'png', 1, 1
    FROM generate_series(1, 5000) g
    """,
    """
    INSERT INTO capture_photo (capture_id, position, sha256, original_name)
    SELECT g * 10 + 1, 0, sha256(convert_to('photo ' || g, 'UTF8')), 'p' || g || '.png' FROM generate_series(1, 4999) g
    """,
    """
    INSERT INTO capture_line (capture_id, position, barcode, symbology, quantity)
    SELECT c, p, '4006381333931', 'ean13', 1 + p FROM generate_series(4, 50000, 5) c, generate_series(0, 2) p
    """,
    "ANALYZE",
]

/// A page of search results for `text` (a statement the server refuses if `text` has no word).
private func search(_ text: String) -> PostgresQuery {
    PostgresQueries.search(text, limit: 50) ?? PostgresQuery(unsafeSQL: "SELECT no word in \(text.count) characters")
}

/// The statements the PostgreSQL engine pages with, each with the indexes that may serve it
/// (empty: any, as long as no table is read whole). A By kind page may walk the kind's index or
/// History's order filtering by kind (the planner takes the latter for a common kind, whose
/// rows lie in insertion order); a word in many records is found walking History's order.
private let pagedReads: [(name: String, query: PostgresQuery, indexes: Set<String>)] = {
    let middle = PostgresQueries.Key(
        createdAt: Date(timeIntervalSince1970: 1_735_689_600 + 25_000 * 60), id: 25_000)
    return [
        ("History, first page", PostgresQueries.historyPage(after: nil, limit: 50), ["capture_on_created_at_id"]),
        ("History, a page in the middle", PostgresQueries.historyPage(after: middle, limit: 50), ["capture_on_created_at_id"]),
        (
            "History by kind, a page in the middle", PostgresQueries.historyPage(kind: .photos, after: middle, limit: 50),
            ["capture_on_kind_created_at_id", "capture_on_created_at_id"]
        ),
        ("search, a rare code", search("4006381358"), ["capture_on_search_vector"]),
        ("search, a word in a tenth of the records", search("pal"), []),
        ("search, two words", search("pallet 40063813"), []),
        ("Inbox, first page of pending requests", PostgresQueries.inboxPage(after: nil, limit: 50), ["request_on_status_created_at_id"]),
        ("Inbox, a page in the middle", PostgresQueries.inboxPage(after: middle, limit: 50), ["request_on_status_created_at_id"]),
    ]
}()

@Suite("PostgreSQL query plans", .serialized)
struct QueryPlanTests {
    @Test func pagedReadsUseIndexesAtFiftyThousandRecords() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        try pool.withConnection { session throws(StorageError) in
            for statement in seed {
                try session.execute(PostgresQuery(unsafeSQL: statement))
            }
        }
        #expect(try pool.int("SELECT count FROM capture_count") == 50_000)

        for read in pagedReads {
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

    @Test func pagedReadsCanUseIndexesOnAnEmptyStore() throws {
        // On a few rows the planner rightly prefers reading tables whole; with sequential scans
        // made a last resort it shows each statement has an index to go by.
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        try pool.withConnection { session throws(StorageError) in
            try session.execute("SET enable_seqscan = off")
            for read in pagedReads {
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
        #expect(PostgresQueries.search("", limit: 10) == nil)
        let many = (1...40).map { "w\($0)" }.joined(separator: " ")
        #expect(PostgresQueries.tsquery(many)?.components(separatedBy: " & ").count == PostgresQueries.maximumSearchWords)
    }
}
