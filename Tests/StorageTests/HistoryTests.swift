import CaptureMode
import Domain
import Foundation
import GRDB
import TabShell
import Testing

@testable import SQLiteStorage
@testable import Storage

@Suite("History")
struct HistoryTests {
    /// 25 notes "n0" (oldest) … "n24" (newest); n10 and n11 share a timestamp, so id breaks the tie.
    private func makeHistory(_ db: any RecordStore) throws -> [Int64] {
        var ids: [Int64] = []
        for index in 0..<25 {
            let minutesAgo = Double(index == 10 ? 100 - 11 : 100 - index)
            ids.append(try db.commit(CaptureSubmission(kind: .note, note: "n\(index)"), now: Clock.minutesAgo(minutesAgo)))
        }
        return ids
    }

    @Test(arguments: StoreEngine.allCases) func pagesAreNewestFirstAtAbsolutePositions(engine: StoreEngine) throws {
        // Given 25 records
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try makeHistory(db)

        // When
        let first = try db.historyPage(HistoryPageRequest(start: 0, count: 10))
        let middle = try db.historyPage(HistoryPageRequest(start: 10, count: 5))

        // Then
        #expect(try db.historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount == 25)
        #expect(first.start == 0 && first.totalCount == 25)
        #expect(first.rows.map(\.note) == (15...24).reversed().map { "n\($0)" })
        #expect(middle.start == 10)
        #expect(middle.rows.map(\.note) == ["n14", "n13", "n12", "n11", "n10"])
    }

    @Test(arguments: StoreEngine.allCases) func theLastPageIsPartial(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try makeHistory(db)

        let page = try db.historyPage(HistoryPageRequest(start: 20, count: 10))

        #expect(page.start == 20)
        #expect(page.rows.map(\.note) == ["n4", "n3", "n2", "n1", "n0"])
        #expect(page.totalCount == 25)
    }

    @Test(arguments: StoreEngine.allCases, [(100, 24, ["n0"]), (25, 24, ["n0"]), (-5, 0, ["n24", "n23", "n22"])])
    func aStartOutOfRangeIsClamped(engine: StoreEngine, clamp: (requested: Int, expectedStart: Int, notes: [String])) throws {
        let (requested, expectedStart, notes) = clamp
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try makeHistory(db)

        let page = try db.historyPage(HistoryPageRequest(start: requested, count: 3))

        #expect(page.start == expectedStart)
        #expect(page.rows.map(\.note) == notes)
    }

    @Test(arguments: StoreEngine.allCases) func anEmptyHistoryHasAnEmptyPage(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)

        let page = try db.historyPage(HistoryPageRequest(start: 3, count: 10))

        #expect(page == HistoryPage(start: 0, rows: [], totalCount: 0))
    }

    @Test(arguments: StoreEngine.allCases) func rowsCarryTheTitleOfTheRequestTheyAnswer(engine: StoreEngine) throws {
        // Given one linked record and one unlinked
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Price check", kind: .barcode, now: Clock.minutesAgo(10))
        let code = Barcode(value: "036000291452", symbology: .upcA)
        _ = try db.commit(CaptureSubmission(kind: .barcode, barcode: code, requestID: requestID), now: Clock.minutesAgo(5))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "loose"), now: Clock.now)

        // When
        let rows = try db.historyPage(HistoryPageRequest(start: 0, count: 10)).rows

        // Then
        #expect(rows.map(\.requestTitle) == [nil, "Price check"])
        #expect(rows.map(\.requestID) == [nil, requestID])
        #expect(rows.last?.barcode == code)
        #expect(rows.last?.summary == "036000291452 (UPC-A)")
    }
}
