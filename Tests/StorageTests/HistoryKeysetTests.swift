import CaptureMode
import Domain
import Foundation
import GRDB
import Scanning
import TabShell
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// Keyset paging of every browse mode, the trigger-kept count and the search index, on both
/// engines (SQLite's migration and generated data: here; PostgreSQL's: `MigrationTests` and
/// `QueryBenchmarkTests`).
@Suite("History keyset paging and search index")
struct HistoryKeysetTests {
    /// `count` captures of every kind over requests whose titles differ only in case, requests
    /// without captures, and records sharing a timestamp (so the id decides their order).
    private func makeHistory(_ db: any RecordStore, count: Int, seed: UInt64) throws {
        var random = TestSupport.SplitMix64(seed: seed)
        var requests: [Int64] = []
        // Requesters: two requests each for "chef" and "Bot", one for "bot" (case differs), none for the rest.
        let requesters: [String?] = ["chef", "Bot", nil, "chef", "bot", nil, "Bot"]
        for (index, title) in ["Shelf", "shelf", "apple", "Zebra", "empty one", "mango", "Apple"].enumerated() {
            requests.append(
                try db.addRequest(
                    title: title, body: "", kind: .note, now: Clock.minutesAgo(Double(10_000 - index)), createdBy: nil,
                    requester: requesters[index]))
        }
        let withCaptures = requests.filter { $0 != requests[4] }
        for index in 0..<count {
            let kind = CaptureKind.allCases[Int(random.next() % 4)]
            let request: Int64? = random.next() % 3 == 0 ? nil : withCaptures[Int(random.next() % UInt64(withCaptures.count))]
            let submission =
                kind == .note || kind == .photos
                ? CaptureSubmission(kind: .note, note: "note \(index)", requestID: request)
                : CaptureSubmission(kind: .barcode, barcode: Barcode(value: "code-\(index)", symbology: .freeText), requestID: request)
            _ = try db.commit(submission, now: Clock.minutesAgo(Double(count - index / 3)))
        }
    }

    /// The whole order of `mode`, computed here from the rows (not by the code under test).
    private func expectedOrder(_ mode: HistoryBrowseMode, _ temp: TemporaryDirectory) throws -> [Int64] {
        let rows = try rawQueue(temp.databaseURL).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT capture.id, capture.kind, capture.requestId, request.title, request.requester, capture.createdAt
                    FROM capture LEFT JOIN request ON request.id = capture.requestId
                    ORDER BY capture.createdAt DESC, capture.id DESC
                    """)
        }
        let newestFirst: [(id: Int64, kind: String, request: Int64?, title: String?, requester: String?)] = rows.map {
            ($0["id"], $0["kind"], $0["requestId"], $0["title"], $0["requester"])
        }
        switch mode {
        case .all:
            return newestFirst.map(\.id)
        case .byKind:
            return CaptureKind.allCases.flatMap { kind in newestFirst.filter { $0.kind == kind.rawValue }.map(\.id) }
        case .byRequest:
            let requests = Set(newestFirst.compactMap { row in row.request.map { RequestKey(id: $0, title: row.title ?? "") } })
            let ordered = requests.sorted { lhs, rhs in
                let (left, right) = (asciiLowercased(lhs.title), asciiLowercased(rhs.title))
                return left != right ? left < right : lhs.id < rhs.id
            }
            let grouped: [Int64] = ordered.flatMap { request in newestFirst.filter { $0.request == request.id }.map(\.id) }
            let unasked: [Int64] = newestFirst.filter { $0.request == nil }.map(\.id)
            return grouped + unasked
        case .byRequester:
            // By name, byte order (ASCII names here: "Bot" < "bot" < "chef"), nobody last.
            let names = Set(newestFirst.compactMap(\.requester)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            let grouped: [Int64] = names.flatMap { name in newestFirst.filter { $0.requester == name }.map(\.id) }
            let nobody: [Int64] = newestFirst.filter { $0.requester == nil }.map(\.id)
            return grouped + nobody
        }
    }

    private struct RequestKey: Hashable {
        var id: Int64
        var title: String
    }

    /// SQLite's NOCASE: only ASCII letters fold.
    private func asciiLowercased(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
                }))
    }

    // MARK: - Paging

    /// Every browse mode with page sizes of 1, 7 and 25. One history serves them all: building
    /// it is most of the test's work (on PostgreSQL, ~6 round trips a commit).
    static let pagings = HistoryBrowseMode.allCases.flatMap { mode in [1, 7, 25].map { (mode: mode, size: $0) } }

    @Test(arguments: StoreEngine.allCases)
    func pagesForwardFromEachPagesLastRowConcatenateToTheWholeOrder(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let sqlite = try openDatabase(temp)
        try makeHistory(sqlite, count: 157, seed: 7)
        let db = try store(engine, like: sqlite, temp, count: 157, seed: 7)

        for (mode, size) in Self.pagings {
            let expected = try expectedOrder(mode, temp)
            var ids: [Int64] = []
            var anchor: HistoryAnchor?
            while ids.count < expected.count {
                let page = try db.historyPage(HistoryPageRequest(start: ids.count, count: size, mode: mode, anchor: anchor))
                #expect(page.start == ids.count && page.totalCount == expected.count, "\(mode) in pages of \(size)")
                guard let last = page.rows.last else { break }
                anchor = HistoryAnchor(position: ids.count + page.rows.count - 1, recordID: last.id)
                ids += page.rows.map(\.id)
            }
            #expect(ids == expected, "\(mode) in pages of \(size)")
        }
    }

    @Test(arguments: StoreEngine.allCases)
    func pagesBackwardFromTheEndConcatenateToTheWholeOrder(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let sqlite = try openDatabase(temp)
        try makeHistory(sqlite, count: 157, seed: 11)
        let db = try store(engine, like: sqlite, temp, count: 157, seed: 11)

        for (mode, size) in Self.pagings {
            let expected = try expectedOrder(mode, temp)
            var ids: [Int64] = []
            var anchor: HistoryAnchor?
            var end = expected.count
            while end > 0 {
                let start = max(0, end - size)
                let page = try db.historyPage(HistoryPageRequest(start: start, count: end - start, mode: mode, anchor: anchor))
                #expect(page.start == start && page.rows.count == end - start, "\(mode) in pages of \(size)")
                guard let first = page.rows.first else { break }
                anchor = HistoryAnchor(position: start, recordID: first.id)
                ids = page.rows.map(\.id) + ids
                end = start
            }
            #expect(ids == expected, "\(mode) in pages of \(size)")
        }
    }

    /// `engine`'s store holding the same history as `sqlite`, the file the expected order is
    /// read from (the same calls in the same order give the same ids and times).
    private func store(_ engine: StoreEngine, like sqlite: AppDatabase, _ temp: TemporaryDirectory, count: Int, seed: UInt64) throws
        -> any RecordStore
    {
        guard engine == .postgres else { return sqlite }
        let server = try temp.store(.postgres)
        try makeHistory(server, count: count, seed: seed)
        return server
    }

    @Test(arguments: StoreEngine.allCases)
    func anyPageFromAnyAnchorIsTheSameSliceOfTheOrder(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let sqlite = try openDatabase(temp)
        try makeHistory(sqlite, count: 90, seed: 3)
        let db = try store(engine, like: sqlite, temp, count: 90, seed: 3)

        for mode in HistoryBrowseMode.allCases {
            let expected = try expectedOrder(mode, temp)
            var random = TestSupport.SplitMix64(seed: 99)
            for _ in 0..<300 {
                let start = Int(random.next() % UInt64(expected.count + 5))
                let count = 1 + Int(random.next() % 30)
                let anchorPosition = Int(random.next() % UInt64(expected.count))
                let anchor = random.next() % 4 == 0 ? nil : HistoryAnchor(position: anchorPosition, recordID: expected[anchorPosition])

                let page = try db.historyPage(HistoryPageRequest(start: start, count: count, mode: mode, anchor: anchor))

                let clamped = min(start, expected.count - 1)
                let slice = Array(expected[clamped..<min(expected.count, clamped + count)])
                #expect(page.rows.map(\.id) == slice, "\(mode): start \(start) count \(count) anchor \(String(describing: anchor))")
            }
        }
    }

    @Test(arguments: StoreEngine.allCases) func anAnchorWhoseRecordIsGoneIsIgnored(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let sqlite = try openDatabase(temp)
        try makeHistory(sqlite, count: 40, seed: 5)
        let expected = try expectedOrder(.byKind, temp)
        let db = try store(engine, like: sqlite, temp, count: 40, seed: 5)
        try db.deleteRecord(id: expected[10])
        let remaining = expected.filter { $0 != expected[10] }

        let page = try db.historyPage(
            HistoryPageRequest(start: 11, count: 5, mode: .byKind, anchor: HistoryAnchor(position: 10, recordID: expected[10]))
        )

        #expect(page.rows.map(\.id) == Array(remaining[11..<16]))
    }

    // MARK: - Count and search index kept by triggers

    private func indexedRowCount(_ temp: TemporaryDirectory) throws -> (capture: Int, counted: Int, searchable: Int) {
        try rawQueue(temp.databaseURL).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture") ?? -1,
                try Int.fetchOne(db, sql: "SELECT count FROM captureCount") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM captureSearch") ?? -1
            )
        }
    }

    @Test(arguments: StoreEngine.allCases) func theSearchIndexAndCountFollowInsertDeleteAndClear(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let back = try temp.backDoor(engine)
        // SQLite's count row and full-text table; PostgreSQL's count row and search column.
        func indexed() throws -> [Int] {
            try [
                back.count(.records),
                back.integer(sqlite: "SELECT count FROM captureCount", postgres: "SELECT count FROM capture_count"),
                back.integer(
                    sqlite: "SELECT COUNT(*) FROM captureSearch",
                    postgres: "SELECT count(*) FROM capture WHERE search_vector IS NOT NULL"),
            ]
        }
        let request = try db.add(title: "Inventory freezer", kind: .note, now: Clock.minutesAgo(9))
        let milk = try db.commit(CaptureSubmission(kind: .note, note: "milk crates", requestID: request), now: Clock.minutesAgo(3))
        let code = try db.commit(
            CaptureSubmission(kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13)), now: Clock.minutesAgo(2))
        #expect(try db.search("milk", limit: 5).map(\.id) == [milk])
        #expect(try db.search("freez", limit: 5).map(\.id) == [milk])
        #expect(try db.search("40063", limit: 5).map(\.id) == [code])
        #expect(try indexed() == [2, 2, 2])

        try db.deleteRecord(id: milk)
        #expect(try db.search("milk", limit: 5).isEmpty)
        #expect(try db.search("freez", limit: 5).isEmpty)
        #expect(try db.storedCount() == 1)
        #expect(try indexed() == [1, 1, 1])

        _ = try db.commit(CaptureSubmission(kind: .note, note: "milk again"), now: Clock.minutesAgo(1))
        #expect(try db.deleteAllRecords() == 2)
        #expect(try db.search("milk", limit: 5).isEmpty)
        #expect(try db.search("4006", limit: 5).isEmpty)
        #expect(try db.storedCount() == 0)
        #expect(try indexed() == [0, 0, 0])
        if engine == .sqlite {
            try back.execute("INSERT INTO captureSearch (captureSearch, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test(arguments: StoreEngine.allCases) func aRenamedOrDeletedRequestChangesWhatItsCapturesAreFoundBy(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let request = try db.add(title: "Count pallets", kind: .note, now: Clock.minutesAgo(9))
        let id = try db.commit(CaptureSubmission(kind: .note, note: "12", requestID: request), now: Clock.minutesAgo(3))
        let back = try temp.backDoor(engine)

        // Another program renames the request, then deletes it
        try back.execute("UPDATE request SET title = 'Count crates' WHERE id = \(request)")
        #expect(try db.search("pallets", limit: 5).isEmpty)
        #expect(try db.search("crates", limit: 5).map(\.id) == [id])

        if engine == .sqlite { try back.execute("PRAGMA foreign_keys = ON") }
        try back.execute("DELETE FROM request WHERE id = \(request)")
        #expect(try db.search("crates", limit: 5).isEmpty)
        #expect(try db.search("12", limit: 5).map(\.id) == [id])
    }

    @Test func migratingToV4IndexesAndCountsTheRecordsAlreadyThere() throws {
        // Given a database at v3 with a request and two captures
        let temp = try TemporaryDirectory()
        let queue = try rawQueue(temp.databaseURL)
        try Migrations.migrator.migrate(queue, upTo: "v3")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO request (id, title, kind, createdAt) VALUES (1, 'Scan the shelf', 'barcode', '2025-01-01 10:00:00.000');
                    INSERT INTO capture (kind, barcode, symbology, requestId, createdAt) VALUES ('barcode', '4006381333931', 'ean13', 1, '2025-01-02 10:00:00.000');
                    INSERT INTO capture (kind, note, createdAt) VALUES ('note', 'dented carton', '2025-01-03 10:00:00.000');
                    """)
        }
        try queue.close()

        // When tabshell opens it
        let db = try openDatabase(temp)

        // Then both are counted and found by code, note and request title
        #expect(try db.historyCount() == 2)
        #expect(try db.search("shelf", limit: 5).map(\.barcode?.value) == ["4006381333931"])
        #expect(try db.search("dent", limit: 5).map(\.note) == ["dented carton"])
        #expect(try db.search("4006", limit: 5).count == 1)
        #expect(try indexedRowCount(temp) == (2, 2, 2))
    }

    @Test func generatedDataIsCountedIndexedAndKeepsItsTriggers() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)

        let total = try db.generateBenchmarkData(BenchmarkDataPlan(records: 500, requests: 20, seed: 1), now: Clock.now)

        #expect(total == 500)
        #expect(try indexedRowCount(temp) == (500, 500, 500))
        // The triggers are back: a new capture is counted and found.
        let id = try db.commitCapture(CaptureSubmission(kind: .note, note: "zyzzyva"), now: Clock.now)
        #expect(try db.search("zyzz", limit: 5).map(\.id) == [id])
        #expect(try indexedRowCount(temp) == (501, 501, 501))
        // The same seed makes the same data.
        let other = try TemporaryDirectory()
        let again = try openDatabase(other)
        try again.generateBenchmarkData(BenchmarkDataPlan(records: 500, requests: 20, seed: 1), now: Clock.now)
        #expect(
            try again.historyPage(HistoryPageRequest(start: 0, count: 50)).rows.map(\.barcode)
                == (try db.historyPage(HistoryPageRequest(start: 1, count: 50)).rows.map(\.barcode)))
    }
}
