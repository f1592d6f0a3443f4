import CaptureMode
import Domain
import Foundation
import GRDB
import TabShell
import Testing

@testable import SQLiteStorage
@testable import Storage

/// The Inbox's reads on both engines: a page in the Inbox's order along an index, whatever the
/// number of requests, and the pending count from the row triggers keep.
@Suite struct InboxPageStorageTests {
    @Test(arguments: StoreEngine.allCases) func aPageIsPendingThenDoneNewestFirstAndSaysWhetherMoreFollow(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        var ids: [Int64] = []
        for index in 0..<12 {
            ids.append(try db.add(title: "R\(index)", kind: .note, now: start.addingTimeInterval(Double(index))))
        }
        // Four answered: they go after every pending one.
        for id in ids.prefix(4) {
            _ = try db.commit(CaptureSubmission(kind: .note, note: "done", requestID: id), now: start)
        }
        let page = try db.inbox(limit: 10)
        #expect(page.requests.map(\.title) == ["R11", "R10", "R9", "R8", "R7", "R6", "R5", "R4", "R3", "R2"])
        #expect(page.pendingCount == 8)
        #expect(page.hasMore)
        #expect(try db.inbox(limit: 12).hasMore == false)
        #expect(try db.requestListing(limit: nil).map(\.title) == page.requests.map(\.title) + ["R1", "R0"])
    }

    @Test(arguments: StoreEngine.allCases) func thePendingCountFollowsInsertsAnswersAndDeletes(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let imported = try db.importRequests((0..<5).map { NewRequest(title: "I\($0)", kind: .note) }, now: Date(), createdBy: nil)
        #expect(try db.inbox(limit: 1).pendingCount == 5)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "x", requestID: imported[0]), now: Date())
        _ = try db.commit(CaptureSubmission(kind: .note, note: "y", requestID: imported[0]), now: Date())
        #expect(try db.inbox(limit: 1).pendingCount == 4)
        let back = try temp.backDoor(engine)
        try back.execute("DELETE FROM request WHERE id IN (\(imported[0]), \(imported[1]))")
        #expect(try db.inbox(limit: 1).pendingCount == 3)
        let counted = try back.integer(
            sqlite: "SELECT COUNT(*) FROM request WHERE status = 'pending'",
            postgres: "SELECT count(*) FROM request WHERE status = 'pending'")
        #expect(counted == 3)
    }

    /// SQLite's plan of the statement both engines page with; PostgreSQL's Inbox plan is
    /// `QueryPlanTests`'.
    @Test func theInboxReadsAlongItsIndexWithoutSorting() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let page = RequestRows.page(status: .pending, limit: 10)
        let plan = try db.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + SQLiteNames.of(page.text), arguments: SQLiteStatements.arguments(page)
            ).map { $0["detail"] as String? ?? "" }.joined(separator: "\n")
        }
        #expect(plan.contains("request_on_status_createdAt_id"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }
}
