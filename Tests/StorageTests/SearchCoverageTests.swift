import CaptureMode
import Domain
import Foundation
import GRDB
import TabShell
import Testing

@testable import SQLiteStorage
@testable import Storage

/// Search finds what was captured, on both engines alike: a batch by any one of its line codes,
/// and any part of a run of a script written without spaces (Han, kana, Hangul, Thai…), while
/// words of other scripts keep matching by their start.
@Suite("Search finds what was captured")
struct SearchCoverageTests {
    static let lines = [
        BatchLine(barcode: Barcode(value: "4006381333931", symbology: .ean13), quantity: 3),
        BatchLine(barcode: Barcode(value: "96385074", symbology: .ean8), quantity: 1),
        BatchLine(barcode: Barcode(value: "5012345678900", symbology: .ean13), quantity: 2),
    ]

    // MARK: - Batches

    @Test(arguments: StoreEngine.allCases) func aBatchIsFoundByAnyOneOfItsLineCodes(engine: StoreEngine) throws {
        // Given a batch of three codes and a note naming none of them
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let batch = try db.commit(CaptureSubmission(kind: .batch, lines: Self.lines), now: Clock.minutesAgo(2))
        let other = try db.commit(CaptureSubmission(kind: .note, note: "shelf 7"), now: Clock.minutesAgo(1))

        // Then each code finds the batch, by its start too, and the middle of a code finds nothing
        #expect(try db.search("96385074", limit: 10).map(\.id) == [batch])
        #expect(try db.search("/96385074", limit: 10).map(\.id) == [batch])
        #expect(try db.search("4006381333931", limit: 10).map(\.id) == [batch])
        #expect(try db.search("5012345678900", limit: 10).map(\.id) == [batch])
        #expect(try db.search("9638", limit: 10).map(\.id) == [batch])
        #expect(try db.search("96385074 shelf", limit: 10).isEmpty)
        #expect(try db.search("385074", limit: 10).isEmpty)
        #expect(try db.search("shelf", limit: 10).map(\.id) == [other])

        // And once the batch is deleted, its codes find nothing
        try db.deleteRecord(id: batch)
        #expect(try db.search("96385074", limit: 10).isEmpty)
    }

    @Test(arguments: StoreEngine.allCases) func aBatchLongerThanOneStatementKeepsEveryLineAndEveryCodeFindsIt(engine: StoreEngine) throws {
        // Given a batch of more lines than one statement inserts, committed between two records
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let count = 2 * CaptureRows.linesPerStatement + 345
        let lines = (0..<count).map { index in
            BatchLine(barcode: Barcode(value: "L\(100_000 + index)", symbology: .code128), quantity: index % 7 + 1)
        }
        let before = try db.commit(CaptureSubmission(kind: .note, note: "before"), now: Clock.minutesAgo(3))
        let batch = try db.commit(CaptureSubmission(kind: .batch, lines: lines), now: Clock.minutesAgo(2))
        let after = try db.commit(CaptureSubmission(kind: .note, note: "after"), now: Clock.minutesAgo(1))

        // Then its detail has every line, in scan order, with its count, and the ids follow
        #expect(try db.recordDetail(id: batch)?.lines == lines)
        #expect(before < batch && batch < after)
        // And a code from each statement's share finds it, the last line's too
        for index in [0, CaptureRows.linesPerStatement, 2 * CaptureRows.linesPerStatement, count - 1] {
            #expect(try db.search("L\(100_000 + index)", limit: 10).map(\.id) == [batch], "line \(index)")
        }
    }

    @Test(arguments: StoreEngine.allCases) func aLineAddedOrRemovedChangesWhatItsBatchIsFoundBy(engine: StoreEngine) throws {
        // Given a batch of one code
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let batch = try db.commit(CaptureSubmission(kind: .batch, lines: Array(Self.lines.prefix(1))), now: Clock.minutesAgo(2))
        let back = try temp.backDoor(engine)

        // When another program adds a line, changes it, then removes it
        try back.execute(
            sqlite: "INSERT INTO captureLine (captureId, position, barcode, symbology, quantity) VALUES (\(batch), 1, '96385074', 'ean8', 1)",
            postgres: "INSERT INTO capture_line (capture_id, position, barcode, symbology, quantity) VALUES (\(batch), 1, '96385074', 'ean8', 1)")
        #expect(try db.search("96385074", limit: 10).map(\.id) == [batch])
        try back.execute(
            sqlite: "UPDATE captureLine SET barcode = '12345670' WHERE captureId = \(batch) AND position = 1",
            postgres: "UPDATE capture_line SET barcode = '12345670' WHERE capture_id = \(batch) AND position = 1")
        #expect(try db.search("96385074", limit: 10).isEmpty)
        #expect(try db.search("12345670", limit: 10).map(\.id) == [batch])
        try back.execute(
            sqlite: "DELETE FROM captureLine WHERE captureId = \(batch) AND position = 1",
            postgres: "DELETE FROM capture_line WHERE capture_id = \(batch) AND position = 1")

        // Then the batch is found by the codes it has, and only by those
        #expect(try db.search("12345670", limit: 10).isEmpty)
        #expect(try db.search("4006381333931", limit: 10).map(\.id) == [batch])
    }

    // MARK: - Scripts written without spaces

    @Test(
        arguments: StoreEngine.allCases,
        ["東京", "京の", "市場", "場", "東京の市場", "の市", "東京の市場で", "京 場"])
    func anyPartOfAJapaneseRunFindsItsNote(engine: StoreEngine, query: String) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let note = try db.commit(CaptureSubmission(kind: .note, note: "東京の市場で検品"), now: Clock.minutesAgo(2))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "大阪の倉庫"), now: Clock.minutesAgo(1))

        #expect(try db.search(query, limit: 10).map(\.id) == [note], "\(query)")
    }

    @Test(arguments: StoreEngine.allCases, ["市東", "京都", "場の", "東京の市場の", "検品 大阪", "市場 opal", "東京x"])
    func aRunThatIsNotThereFindsNothing(engine: StoreEngine, query: String) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "東京の市場で検品"), now: Clock.minutesAgo(2))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "大阪の倉庫"), now: Clock.minutesAgo(1))

        #expect(try db.search(query, limit: 10).isEmpty, "\(query)")
    }

    @Test(arguments: StoreEngine.allCases) func koreanThaiAndChineseAreFoundByAnyPart(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let korean = try db.commit(CaptureSubmission(kind: .note, note: "서울시장 입고"), now: Clock.minutesAgo(4))
        let thai = try db.commit(CaptureSubmission(kind: .note, note: "ทดสอบกันน้ำ"), now: Clock.minutesAgo(3))
        let chinese = try db.commit(
            CaptureSubmission(kind: .barcode, barcode: Barcode(value: "北京市场-7", symbology: .freeText)), now: Clock.minutesAgo(2))

        #expect(try db.search("시장", limit: 10).map(\.id) == [korean])
        #expect(try db.search("울시", limit: 10).map(\.id) == [korean])
        #expect(try db.search("กัน", limit: 10).map(\.id) == [thai])
        #expect(try db.search("น้ำ", limit: 10).map(\.id) == [thai])
        #expect(try db.search("市场", limit: 10).map(\.id) == [chinese])
        #expect(try db.search("市场 7", limit: 10).map(\.id) == [chinese])
        #expect(try db.search("울서", limit: 10).isEmpty)
    }

    @Test(arguments: StoreEngine.allCases) func aNoteMixingLatinAndJapanese(engine: StoreEngine) throws {
        // Given a note with Latin words and Japanese, written with and without spaces between them
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let mixed = try db.commit(CaptureSubmission(kind: .note, note: "Pallet東京の市場 check Lot42"), now: Clock.minutesAgo(2))
        let latin = try db.commit(CaptureSubmission(kind: .note, note: "opal palette"), now: Clock.minutesAgo(1))

        // Then Latin words keep matching by their start, Japanese by any part, together too
        #expect(try db.search("pal", limit: 10).map(\.id) == [latin, mixed])
        #expect(try db.search("pallet東京", limit: 10).map(\.id) == [mixed])
        #expect(try db.search("市場 check", limit: 10).map(\.id) == [mixed])
        #expect(try db.search("の市 lot4", limit: 10).map(\.id) == [mixed])
        #expect(try db.search("CHECK 東", limit: 10).map(\.id) == [mixed])
        #expect(try db.search("allet", limit: 10).isEmpty)
        #expect(try db.search("opal 東京", limit: 10).isEmpty)
        #expect(try db.search("pallet京", limit: 10).isEmpty)
    }

    @Test(arguments: StoreEngine.allCases) func aRequestTitleInJapaneseFindsItsRecords(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let request = try db.add(title: "冷蔵庫の在庫確認", kind: .note, now: Clock.minutesAgo(9))
        let answer = try db.commit(CaptureSubmission(kind: .note, note: "12", requestID: request), now: Clock.minutesAgo(3))

        #expect(try db.search("在庫", limit: 10).map(\.id) == [answer])
        #expect(try db.search("蔵庫の在", limit: 10).map(\.id) == [answer])
    }

    // MARK: - Records made before

    @Test func sqliteIndexesTheBatchesAndNotesItAlreadyHeld() throws {
        // Given a database at v10-uids with a batch and a Japanese note
        let temp = try TemporaryDirectory()
        let queue = try rawQueue(temp.databaseURL)
        try Migrations.migrator.migrate(queue, upTo: "v10-uids")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO capture (id, kind, createdAt) VALUES (1, 'batch', '2025-01-02 10:00:00.000');
                    INSERT INTO captureLine (captureId, position, barcode, symbology, quantity) VALUES (1, 0, '96385074', 'ean8', 1);
                    INSERT INTO capture (id, kind, note, createdAt) VALUES (2, 'note', '東京の市場', '2025-01-03 10:00:00.000');
                    """)
        }
        try queue.close()

        // When this build opens it
        let db = try openDatabase(temp)

        // Then both are found as new ones are
        #expect(try db.search("96385074", limit: 5).map(\.id) == [1])
        #expect(try db.search("市場", limit: 5).map(\.id) == [2])
        #expect(try db.search("京の", limit: 5).map(\.id) == [2])
        #expect(try rawQueue(temp.databaseURL).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM captureSearch") } == 2)
    }

    // MARK: - The queries

    @Test func ftsQueryMakesAPhraseOfEachRunWithoutSpaces() {
        #expect(HistoryQueries.ftsQuery("東京") == "\"東 京\"")
        #expect(HistoryQueries.ftsQuery("Pallet東京 市場 op") == "\"Pallet 東 京\" \"市 場\" \"op\"*")
        #expect(HistoryQueries.ftsQuery("東京op") == "\"東 京 op\"*")
        #expect(HistoryQueries.ftsQuery("กัน") == "\"ก น\"")
        // Sixteen units in all: a long run is cut, the words after it left out.
        let long = String(repeating: "東", count: 20) + " milk"
        #expect(HistoryQueries.ftsQuery(long) == "\"" + Array(repeating: "東", count: 16).joined(separator: " ") + "\"")
    }

    @Test func spacedTextPutsEachCharacterOfARunWithoutSpacesApart() {
        #expect(SearchText.spaced("opal 4006") == "opal 4006")
        #expect(SearchText.spaced("Lot東京") == "Lot 東  京 ")
        #expect(SearchText.spaced("กัน") == " ก   น ")
        #expect(SearchText.spaced("𠀋x") == " 𠀋 x")
        #expect(SearchText.phrases(of: "ั", maximumUnits: 16).isEmpty)
    }

    @Test func everyListedMarkIsAMarkAndLiesInAListedScript() {
        for range in SearchText.markRanges {
            for value in range {
                let category = Unicode.Scalar(value)?.properties.generalCategory
                #expect(
                    [.nonspacingMark, .spacingMark, .enclosingMark].contains(category),
                    "U+\(String(value, radix: 16)) is \(String(describing: category))")
                #expect(SearchText.unspacedRanges.contains { $0.contains(value) })
            }
        }
    }
}
