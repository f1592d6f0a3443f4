import CaptureMode
import Domain
import Foundation
import GRDB
import TabShell
import Testing

@testable import SQLiteStorage
@testable import Storage

/// History's browse modes, search and record detail, on both engines (the query plans: SQLite's
/// here, PostgreSQL's in `QueryPlanTests`).
@Suite("History queries")
struct HistoryQueryTests {
    /// The records of `makeMixedHistory`, newest first, with what the modes group them by.
    struct Made {
        var ids: [Int64]
        var requestIDs: (zebra: Int64, apple: Int64, mango: Int64)
    }

    /// 30 captures over three requests ("Zebra", "apple", "Mango") and none, of every kind;
    /// capture i is i minutes old, so `ids` (index 0 newest) is the All order.
    private func makeMixedHistory(_ db: any RecordStore) throws -> Made {
        let zebra = try db.add(title: "Zebra crossing count", kind: .note, now: Clock.minutesAgo(500))
        let apple = try db.add(title: "apple crates", kind: .barcode, now: Clock.minutesAgo(400))
        let mango = try db.add(title: "Mango pallet", kind: .barcode, now: Clock.minutesAgo(300))
        let requests: [Int64?] = [zebra, apple, nil, mango, apple]
        var ids: [Int64] = []
        // Oldest first, so ids grow with time; `ids` is reversed at the end.
        for minutes in (0..<30).reversed() {
            let index = minutes
            let kind: CaptureKind = [.barcode, .note, .barcode, .note, .barcode][index % 5]
            let submission =
                kind == .barcode
                ? CaptureSubmission(kind: .barcode, barcode: Barcode(value: "code-\(index)", symbology: .freeText), requestID: requests[index % 5])
                : CaptureSubmission(kind: .note, note: "note \(index)", requestID: requests[index % 5])
            ids.append(try db.commit(submission, now: Clock.minutesAgo(Double(minutes))))
        }
        return Made(ids: ids.reversed(), requestIDs: (zebra, apple, mango))
    }

    /// Every page of `mode` (several page sizes and starts) against the whole order read in one go.
    private func expectPagesAreSlices(of order: [Int64], mode: HistoryBrowseMode, _ db: any RecordStore) throws {
        for count in [1, 4, 7, 30, 45] {
            for start in stride(from: 0, to: order.count, by: 3) {
                let page = try db.historyPage(HistoryPageRequest(start: start, count: count, mode: mode))
                let expected = Array(order[start..<min(order.count, start + count)])
                #expect(page.rows.map(\.id) == expected, "\(mode) start \(start) count \(count)")
                #expect(page.start == start && page.totalCount == order.count && page.mode == mode)
            }
        }
    }

    // MARK: - Browse modes

    @Test(arguments: StoreEngine.allCases) func allIsNewestFirstLikeThePlainPage(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let made = try makeMixedHistory(db)

        let page = try db.historyPage(HistoryPageRequest(start: 3, count: 5))

        #expect(page.rows.map(\.id) == Array(made.ids[3..<8]))
        #expect(page == HistoryPage(start: 3, rows: try db.historyPage(HistoryPageRequest(start: 3, count: 5)).rows, totalCount: 30, mode: .all))
    }

    @Test(arguments: StoreEngine.allCases) func byKindGroupsInKindOrderNewestFirstWithinEachGroup(engine: StoreEngine) throws {
        // Given captures of two kinds, interleaved in time
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let made = try makeMixedHistory(db)
        let all = try db.historyPage(HistoryPageRequest(start: 0, count: 30)).rows

        // When the whole list is read by kind
        let page = try db.historyPage(HistoryPageRequest(start: 0, count: 30, mode: .byKind))

        // Then barcodes come first, then notes (CaptureKind order), each newest first
        let expected = all.filter { $0.kind == .barcode } + all.filter { $0.kind == .note }
        #expect(page.rows.map(\.kind) == Array(repeating: .barcode, count: 18) + Array(repeating: .note, count: 12))
        #expect(page.rows.map(\.id) == expected.map(\.id))
        #expect(Set(page.rows.map(\.id)) == Set(made.ids))
        // And any page is the same slice of that order
        try expectPagesAreSlices(of: expected.map(\.id), mode: .byKind, db)
    }

    @Test(arguments: StoreEngine.allCases) func byRequestGroupsByTitleCaseInsensitivelyWithUnlinkedLast(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let made = try makeMixedHistory(db)
        let all = try db.historyPage(HistoryPageRequest(start: 0, count: 30)).rows

        let page = try db.historyPage(HistoryPageRequest(start: 0, count: 30, mode: .byRequest))

        // "apple crates" < "Mango pallet" < "Zebra crossing count", then the records without a request
        let groups: [Int64?] = [made.requestIDs.apple, made.requestIDs.mango, made.requestIDs.zebra, nil]
        let expected = groups.flatMap { id in all.filter { $0.requestID == id } }
        #expect(page.rows.map(\.id) == expected.map(\.id))
        #expect(page.rows.first?.requestTitle == "apple crates")
        #expect(page.rows.last?.requestTitle == nil)
        try expectPagesAreSlices(of: expected.map(\.id), mode: .byRequest, db)
    }

    @Test(arguments: StoreEngine.allCases) func twoRequestsWithTheSameTitleAreTwoGroupsOldestRequestFirst(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let older = try db.add(title: "Shelf", kind: .note, now: Clock.minutesAgo(60))
        let newer = try db.add(title: "shelf", kind: .note, now: Clock.minutesAgo(50))
        let a = try db.commit(CaptureSubmission(kind: .note, note: "a", requestID: newer), now: Clock.minutesAgo(3))
        let b = try db.commit(CaptureSubmission(kind: .note, note: "b", requestID: older), now: Clock.minutesAgo(2))
        let c = try db.commit(CaptureSubmission(kind: .note, note: "c", requestID: newer), now: Clock.minutesAgo(1))

        let page = try db.historyPage(HistoryPageRequest(start: 0, count: 10, mode: .byRequest))

        #expect(page.rows.map(\.id) == [b, c, a])
    }

    @Test(arguments: StoreEngine.allCases, HistoryBrowseMode.allCases)
    func groupedPagesClampLikeThePlainPage(engine: StoreEngine, mode: HistoryBrowseMode) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        #expect(
            try db.historyPage(HistoryPageRequest(start: 5, count: 10, mode: mode))
                == HistoryPage(start: 0, rows: [], totalCount: 0, mode: mode))

        _ = try makeMixedHistory(db)
        let late = try db.historyPage(HistoryPageRequest(start: 100, count: 10, mode: mode))
        #expect(late.start == 29 && late.rows.count == 1)
        let none = try db.historyPage(HistoryPageRequest(start: 3, count: 0, mode: mode))
        #expect(none.rows.isEmpty && none.totalCount == 30)
    }

    @Test(arguments: StoreEngine.allCases) func aDeletedRecordLeavesItsGroup(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let made = try makeMixedHistory(db)
        let before = try db.historyPage(HistoryPageRequest(start: 0, count: 30, mode: .byRequest)).rows

        try db.deleteRecord(id: made.ids[0])

        let after = try db.historyPage(HistoryPageRequest(start: 0, count: 30, mode: .byRequest))
        #expect(after.totalCount == 29)
        #expect(after.rows.map(\.id) == before.map(\.id).filter { $0 != made.ids[0] })
    }

    // MARK: - Search

    @Test(arguments: StoreEngine.allCases) func searchMatchesCodesNotesAndRequestTitlesNewestFirst(engine: StoreEngine) throws {
        // Given a code, a note and a request title with a word starting with "pal", and one without
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let request = try db.add(title: "Count the PALLETS", kind: .note, now: Clock.minutesAgo(90))
        let byTitle = try db.commit(CaptureSubmission(kind: .note, note: "12", requestID: request), now: Clock.minutesAgo(30))
        let byCode = try db.commit(
            CaptureSubmission(kind: .barcode, barcode: Barcode(value: "PAL-0042", symbology: .freeText)), now: Clock.minutesAgo(20))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "nothing to see"), now: Clock.minutesAgo(15))
        let byNote = try db.commit(CaptureSubmission(kind: .note, note: "Second\nPalé shelf"), now: Clock.minutesAgo(10))

        // When
        let rows = try db.search("pal", limit: 10)

        // Then all three match (case- and accent-insensitively), newest first, with their request titles
        #expect(rows.map(\.id) == [byNote, byCode, byTitle])
        #expect(rows.last?.requestTitle == "Count the PALLETS")
        #expect(try db.search("  pal ", limit: 10).map(\.id) == [byNote, byCode, byTitle])
        #expect(try db.search("pal", limit: 2).map(\.id) == [byNote, byCode])
    }

    @Test(arguments: StoreEngine.allCases) func searchMatchesWordPrefixesNotTheMiddleOfWords(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let opal = try db.commit(CaptureSubmission(kind: .note, note: "opal shelf"), now: Clock.minutesAgo(2))
        let code = try db.commit(
            CaptureSubmission(kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13)), now: Clock.minutesAgo(1))

        #expect(try db.search("pal", limit: 10).isEmpty)
        #expect(try db.search("op", limit: 10).map(\.id) == [opal])
        #expect(try db.search("opal sh", limit: 10).map(\.id) == [opal])
        #expect(try db.search("opal milk", limit: 10).isEmpty)
        #expect(try db.search("4006", limit: 10).map(\.id) == [code])
        #expect(try db.search("0063", limit: 10).isEmpty)
    }

    @Test(
        arguments: StoreEngine.allCases,
        [("100%", ["100% done", "1000 done"]), ("a_b", ["a_b"]), ("\"quoted\"", ["\"quoted\" word"]), ("NEAR(a b)", [])])
    func punctuationSeparatesWordsAndIsNeverFTSSyntax(engine: StoreEngine, example: (query: String, notes: [String])) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let (query, notes) = example
        for (minutes, note) in ["100% done", "1000 done", "a_b", "axb", "\"quoted\" word"].enumerated() {
            _ = try db.commit(CaptureSubmission(kind: .note, note: note), now: Clock.minutesAgo(Double(minutes)))
        }

        #expect(try db.search(query, limit: 10).map(\.note) == notes)
    }

    @Test(arguments: StoreEngine.allCases, ["%", "_", "\\", "\"", "*", "-", "^", "(", ")", ":", "\"\"*", "AND", "OR NOT", "'"])
    func garbageIsNoErrorAndMatchesLiterallyOrNothing(engine: StoreEngine, query: String) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "andover ornate notebook"), now: Clock.now)

        let rows = try db.search(query, limit: 10)

        // Words are prefixes ("AND" finds "andover"), punctuation alone finds nothing.
        let words = query.split { !$0.isLetter && !$0.isNumber }
        #expect(rows.count == (words.isEmpty ? 0 : 1), "\(query)")
    }

    @Test func ftsQueryQuotesEveryWordAsAPrefix() {
        #expect(HistoryQueries.ftsQuery("  pal  0042 ") == "\"pal\"* \"0042\"*")
        #expect(HistoryQueries.ftsQuery("a\"b OR c*") == "\"a\"* \"b\"* \"OR\"* \"c\"*")
        #expect(HistoryQueries.ftsQuery("%_-\"") == nil)
        #expect(HistoryQueries.ftsQuery("") == nil)
        let many = (0..<40).map { "w\($0)" }.joined(separator: " ")
        #expect(HistoryQueries.ftsQuery(many)?.split(separator: " ").count == SearchText.maximumQueryUnits)
    }

    @Test(arguments: StoreEngine.allCases) func searchTextIsNeverSQL(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "milk"), now: Clock.now)

        #expect(try db.search("' OR 1=1 --", limit: 10).isEmpty)
        #expect(try db.search("\"); DROP TABLE capture; --", limit: 10).isEmpty)
        #expect(try db.storedCount() == 1)
    }

    @Test(arguments: StoreEngine.allCases) func anEmptyOrOverlongSearch(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "milk"), now: Clock.now)

        #expect(try db.search("", limit: 10).isEmpty)
        #expect(try db.search("   ", limit: 10).isEmpty)
        #expect(try db.search("milk", limit: 0).isEmpty)
        #expect(throws: StorageError.invalidInput("A search can have at most 1000 characters.")) {
            try db.search(String(repeating: "m", count: 1_001), limit: 10)
        }
    }

    // MARK: - Detail

    @Test(arguments: StoreEngine.allCases) func aRecordsDetailHasItsPhotosInOrderWithTheirFacts(engine: StoreEngine) throws {
        // Given a product committed with two staged photos, for a request
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let request = try db.add(title: "Shoot the carton", kind: .product, now: Clock.minutesAgo(9))
        let session = try db.beginStaging()
        let png = try TestImages.write(TestImages.png(width: 640, height: 480), named: "front.png", in: temp.url)
        let jpeg = try TestImages.write(TestImages.jpeg(width: 1024, height: 768), named: "back side.jpg", in: temp.url)
        let front = try session.stage(fileAt: png, originalName: "front.png", maxBytes: 1_000_000) { _, _ in true }
        let back = try session.stage(fileAt: jpeg, originalName: "back side.jpg", maxBytes: 1_000_000) { _, _ in true }
        let code = Barcode(value: "4006381333931", symbology: .ean13)
        let submission = CaptureSubmission(kind: .product, barcode: code, requestID: request, photos: [back, front])
        let id = try db.commitCapture(submission, staging: session, now: Clock.now, capturedBy: nil)

        // When
        let detail = try #require(try db.recordDetail(id: id))

        // Then
        #expect(detail.record == (try db.storedRecord(id)))
        #expect(detail.record.barcode == code && detail.record.requestTitle == "Shoot the carton")
        #expect(detail.photos.map(\.originalName) == ["back side.jpg", "front.png"])
        #expect(detail.photos.map(\.position) == [0, 1])
        #expect(detail.photos.map(\.format) == [.jpeg, .png])
        #expect(detail.photos.map(\.pixelWidth) == [1024, 640])
        #expect(detail.photos.map(\.pixelHeight) == [768, 480])
        #expect(detail.photos.map(\.byteSize) == [back.byteSize, front.byteSize])
    }

    @Test(arguments: StoreEngine.allCases) func aRecordWithoutPhotosOrWithoutARowAtAll(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let id = try db.commit(CaptureSubmission(kind: .note, note: "milk"), now: Clock.now)

        #expect(try db.recordDetail(id: id)?.photos == [])
        #expect(try db.recordDetail(id: id)?.record.note == "milk")
        #expect(try db.recordDetail(id: id + 1) == nil)
        try db.deleteRecord(id: id)
        #expect(try db.recordDetail(id: id) == nil)
    }

    // MARK: - Query plans

    /// The plan of `statement` (written in PostgreSQL's names) on SQLite, one step per line.
    private func plan(_ db: AppDatabase, _ statement: StoreSQL) throws -> String {
        try db.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + SQLiteNames.of(statement.text), arguments: SQLiteStatements.arguments(statement)
            )
            .map { $0["detail"] as String? ?? "" }
            .joined(separator: "\n")
        }
    }

    /// Fails unless every step of `plan` that reads `capture` goes through an index (or the
    /// primary key), and, unless `sortAllowed`, nothing is sorted in a temporary B-tree.
    private func expectIndexed(_ plan: String, sortAllowed: Bool = false, _ what: String) {
        for line in plan.split(separator: "\n") where line.contains("capture ") || line.hasSuffix("capture") {
            let indexed =
                line.contains("USING INDEX") || line.contains("USING COVERING INDEX")
                || line.contains("USING INTEGER PRIMARY KEY")
            #expect(indexed, "\(what): \(line)\n\(plan)")
        }
        #expect(!plan.contains("SCAN capture\n") && !plan.hasSuffix("SCAN capture"), "\(what): \(plan)")
        if !sortAllowed {
            #expect(!plan.contains("TEMP B-TREE"), "\(what): \(plan)")
        }
    }

    @Test func everyHistoryQueryReadsThroughAnIndex() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let made = try makeMixedHistory(db)
        let groups: [HistoryGroup] = [
            .all, .kind(.barcode), .kind(.note), .request(id: made.requestIDs.apple, title: "apple crates"), .noRequest,
            .requester("ana"), .noRequester,
        ]

        for group in groups {
            for direction in [HistoryDirection.forward, .backward] {
                for after in [nil, made.ids[4]] {
                    let rows = HistoryStatements.rows(of: group, after: after, direction, limit: 10, offset: 2)
                    expectIndexed(try plan(db, rows), "\(group) \(direction) rows")
                    let count = HistoryStatements.rowCount(of: group, after: after, direction, atMost: 50)
                    let countPlan = try plan(db, count)
                    expectIndexed(countPlan, "\(group) \(direction) count")
                    #expect(countPlan.contains("COVERING INDEX"), "\(countPlan)")
                }
            }
        }
        // The records' own order: each mode's index, by name.
        let byKind = HistoryStatements.rows(of: .kind(.note), after: nil, .forward, limit: 5, offset: 0)
        #expect(try plan(db, byKind).contains("capture_on_kind_createdAt_id"))
        let byRequest = HistoryStatements.rows(of: .request(id: 1, title: "x"), after: nil, .backward, limit: 5, offset: 0)
        #expect(try plan(db, byRequest).contains("capture_on_requestId_createdAt_id"))
        let unlinked = HistoryStatements.rows(of: .noRequest, after: nil, .forward, limit: 5, offset: 0)
        #expect(try plan(db, unlinked).contains("capture_on_requestId_createdAt_id"))
        let all = HistoryStatements.rows(of: .all, after: made.ids[4], .forward, limit: 5, offset: 0)
        let allPlan = try plan(db, all)
        #expect(allPlan.contains("capture_on_createdAt_id"), "\(allPlan)")
        // Past a record: a range of the index from that record's place, not a walk from the top.
        #expect(allPlan.contains("capture_on_createdAt_id (createdAt<?)"), "\(allPlan)")

        // The next request group: along the title index, probing captures by requestId.
        for direction in [HistoryDirection.forward, .backward] {
            for group in [nil, HistoryGroup.request(id: made.requestIDs.mango, title: "Mango pallet")] {
                let requestPlan = try plan(db, HistoryStatements.requestGroup(after: group, direction, .sqlite))
                expectIndexed(requestPlan, "request group \(direction)")
                #expect(requestPlan.contains("request_on_title_id"), "\(requestPlan)")
                if group != nil { #expect(requestPlan.contains("SEARCH request"), "\(requestPlan)") }
            }
            for group in [nil, HistoryGroup.requester("ana")] {
                let requesterPlan = try plan(db, HistoryStatements.requesterGroup(after: group, direction))
                expectIndexed(requesterPlan, "requester group \(direction)")
            }
        }

        // The count is one row, not a count of the table.
        let countPlan = try plan(db, "SELECT count FROM capture_count WHERE id = 1")
        #expect(countPlan.contains("SEARCH captureCount USING INTEGER PRIMARY KEY"), "\(countPlan)")

        // Search: the full-text index, then the hits by primary key (only they are sorted).
        let search = try #require(HistoryQueries.search("pal 4", limit: 50))
        let searchPlan = try plan(db, search)
        #expect(searchPlan.contains("SCAN captureSearch VIRTUAL TABLE INDEX"), "\(searchPlan)")
        expectIndexed(searchPlan, sortAllowed: true, "search")
    }
}
