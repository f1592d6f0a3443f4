import CaptureMode
import Foundation
import GRDB
import TabShell
import Testing

@testable import Storage

@Suite("History")
struct HistoryTests {
    /// 25 notes "n0" (oldest) … "n24" (newest); n10 and n11 share a timestamp, so id breaks the tie.
    private func makeHistory(_ db: AppDatabase) throws -> [Int64] {
        var ids: [Int64] = []
        for index in 0..<25 {
            let minutesAgo = Double(index == 10 ? 100 - 11 : 100 - index)
            ids.append(try db.commitCapture(CaptureSubmission(kind: .note, note: "n\(index)"), now: Clock.minutesAgo(minutesAgo)))
        }
        return ids
    }

    @Test func pagesAreNewestFirstAtAbsolutePositions() throws {
        // Given 25 records
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        _ = try makeHistory(db)

        // When
        let first = try db.historyPage(HistoryPageRequest(start: 0, count: 10))
        let middle = try db.historyPage(HistoryPageRequest(start: 10, count: 5))

        // Then
        #expect(try db.historyCount() == 25)
        #expect(first.start == 0 && first.totalCount == 25)
        #expect(first.rows.map(\.note) == (15...24).reversed().map { "n\($0)" })
        #expect(middle.start == 10)
        #expect(middle.rows.map(\.note) == ["n14", "n13", "n12", "n11", "n10"])
    }

    @Test func theLastPageIsPartial() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        _ = try makeHistory(db)

        let page = try db.historyPage(HistoryPageRequest(start: 20, count: 10))

        #expect(page.start == 20)
        #expect(page.rows.map(\.note) == ["n4", "n3", "n2", "n1", "n0"])
        #expect(page.totalCount == 25)
    }

    @Test(arguments: [(100, 24, ["n0"]), (25, 24, ["n0"]), (-5, 0, ["n24", "n23", "n22"])])
    func aStartOutOfRangeIsClamped(requested: Int, expectedStart: Int, notes: [String]) throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        _ = try makeHistory(db)

        let page = try db.historyPage(HistoryPageRequest(start: requested, count: 3))

        #expect(page.start == expectedStart)
        #expect(page.rows.map(\.note) == notes)
    }

    @Test func anEmptyHistoryHasAnEmptyPage() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)

        let page = try db.historyPage(HistoryPageRequest(start: 3, count: 10))

        #expect(page == HistoryPage(start: 0, rows: [], totalCount: 0))
    }

    @Test func rowsCarryTheTitleOfTheRequestTheyAnswer() throws {
        // Given one linked record and one unlinked
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let requestID = try db.addRequest(title: "Price check", kind: .barcode, now: Clock.minutesAgo(10))
        let code = Barcode(value: "036000291452", symbology: .upcA)
        _ = try db.commitCapture(CaptureSubmission(kind: .barcode, barcode: code, requestID: requestID), now: Clock.minutesAgo(5))
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "loose"), now: Clock.now)

        // When
        let rows = try db.historyPage(HistoryPageRequest(start: 0, count: 10)).rows

        // Then
        #expect(rows.map(\.requestTitle) == [nil, "Price check"])
        #expect(rows.map(\.requestID) == [nil, requestID])
        #expect(rows.last?.barcode == code)
        #expect(rows.last?.summary == "036000291452 (UPC-A)")
    }

    @Test func theHistoryQueryUsesTheIndexInsteadOfSorting() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        _ = try makeHistory(db)

        let plan = try db.read { db in
            let statement = try HistoryRowRecord.all().limit(10, offset: 5).makePreparedRequest(db).statement
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                .map { $0["detail"] as String? ?? "" }
                .joined(separator: "\n")
        }

        #expect(plan.contains("capture_on_createdAt_id"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }
}
