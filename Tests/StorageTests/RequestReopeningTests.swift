import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

/// A request whose answer is deleted is pending again; `inbox reopen` and `inbox remove` on both
/// engines.
@Suite("Reopening and removing requests")
struct RequestReopeningTests {
    @Test(arguments: StoreEngine.allCases) func deletingTheRecordThatAnsweredARequestMakesItPendingAgain(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let request = try db.add(title: "Shelf 4", kind: .note, now: Clock.minutesAgo(30))
        let twice = try db.add(title: "Twice", kind: .note, now: Clock.minutesAgo(20))
        let answer = try db.commit(CaptureSubmission(kind: .note, note: "a", requestID: request), now: Clock.minutesAgo(10))
        let first = try db.commit(CaptureSubmission(kind: .note, note: "b", requestID: twice), now: Clock.minutesAgo(9))
        let second = try db.commit(CaptureSubmission(kind: .note, note: "c", requestID: twice), now: Clock.minutesAgo(8))
        #expect(try db.inbox().pendingCount == 0)

        #expect(try db.deleteRecord(id: answer))
        var inbox = try db.inbox()
        #expect(inbox.requests.first { $0.id == request }?.status == .pending)
        #expect(inbox.requests.first { $0.id == request }?.doneAt == nil)
        #expect(inbox.pendingCount == 1)

        // Answered twice: done while one answer is left
        #expect(try db.deleteRecord(id: first))
        #expect(try db.inbox().requests.first { $0.id == twice }?.status == .done)
        #expect(try db.deleteRecord(id: second))
        inbox = try db.inbox()
        #expect(inbox.requests.map(\.status) == [.pending, .pending])
        #expect(inbox.pendingCount == 2)
    }

    @Test(arguments: StoreEngine.allCases) func aRecordSaysWhatDeletingItDoesToItsRequest(engine: StoreEngine) throws {
        // Given a request answered once, one answered twice, and a record answering none
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let once = try db.add(title: "Once", kind: .note, now: Clock.minutesAgo(30))
        let twice = try db.add(title: "Twice", kind: .note, now: Clock.minutesAgo(29))
        let only = try db.commit(CaptureSubmission(kind: .note, note: "a", requestID: once), now: Clock.minutesAgo(10))
        let first = try db.commit(CaptureSubmission(kind: .note, note: "b", requestID: twice), now: Clock.minutesAgo(9))
        let second = try db.commit(CaptureSubmission(kind: .note, note: "c", requestID: twice), now: Clock.minutesAgo(8))
        let loose = try db.commit(CaptureSubmission(kind: .note, note: "d"), now: Clock.minutesAgo(7))
        func fate(_ id: Int64) throws -> RequestAfterDeletion? { try db.storedRecord(id)?.requestAfterDeletion }

        // Then only the sole answer would make its request pending again
        #expect(try fate(only) == .pendingAgain)
        #expect(try fate(first) == .answeredByAnother)
        #expect(try fate(second) == .answeredByAnother)
        #expect(try fate(loose) == nil)
        let page = try db.historyPage(HistoryPageRequest(start: 0, count: 10))
        #expect(page.rows.map(\.requestAfterDeletion) == [nil, .answeredByAnother, .answeredByAnother, .pendingAgain])
        #expect(try db.search("b", limit: 5).map(\.requestAfterDeletion) == [.answeredByAnother])

        // When one of the two answers goes, the other is the only one; reopened, it stays pending
        #expect(try db.deleteRecord(id: first))
        #expect(try fate(second) == .pendingAgain)
        _ = try db.reopenRequest(id: twice)
        #expect(try fate(second) == .pendingAlready)
    }

    @Test(arguments: StoreEngine.allCases) func clearingHistoryMakesTheAnsweredRequestsPendingAgain(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let request = try db.add(title: "Shelf 4", kind: .note, now: Clock.minutesAgo(30))
        _ = try db.add(title: "Open", kind: .note, now: Clock.minutesAgo(20))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "a", requestID: request), now: Clock.minutesAgo(10))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "b"), now: Clock.minutesAgo(9))

        #expect(try db.deleteAllRecords() == 2)

        let inbox = try db.inbox()
        #expect(inbox.requests.map(\.status) == [.pending, .pending])
        #expect(inbox.pendingCount == 2)
    }

    @Test(arguments: StoreEngine.allCases) func reopenAndRemoveSayWhatTheyDid(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let request = try db.add(title: "Shelf 4", kind: .note, now: Clock.minutesAgo(30))
        let answer = try db.commit(CaptureSubmission(kind: .note, note: "a", requestID: request), now: Clock.minutesAgo(10))

        #expect(try db.reopenRequest(id: 99) == .notFound(id: 99))
        guard case let .reopened(reopened) = try db.reopenRequest(id: request) else {
            Issue.record("not reopened")
            return
        }
        #expect(reopened.status == .pending && reopened.doneAt == nil && reopened.title == "Shelf 4")
        #expect(try db.inbox().pendingCount == 1)
        #expect(try db.recordDetail(id: answer)?.record.requestID == request, "its answer still names it")
        guard case .alreadyPending = try db.reopenRequest(id: request) else {
            Issue.record("reopened twice")
            return
        }

        #expect(try db.removeRequest(id: 99) == .notFound(id: 99))
        guard case let .removed(removed, records) = try db.removeRequest(id: request) else {
            Issue.record("not removed")
            return
        }
        #expect(removed.id == request && records == 1)
        #expect(try db.inbox().requests.isEmpty)
        #expect(try db.inbox().pendingCount == 0)
        let kept = try #require(try db.recordDetail(id: answer))
        #expect(kept.record.requestID == nil && kept.record.note == "a", "the answer stays, answering nothing")
        #expect(try db.search("Shelf", limit: 10).isEmpty, "search no longer finds it by the request's title")
        #expect(try db.removeRequest(id: request) == .notFound(id: request))
    }

    @Test func sentences() {
        let request = InboxRequest(id: 7, title: "Shelf 4", body: "", kind: .note, status: .pending, createdAt: Clock.now)
        #expect(RequestChange.notFound(id: 7).sentence() == "There is no request #7 (tabshell inbox list shows them).")
        #expect(RequestChange.reopened(request).sentence() == "Request #7 is pending again: \u{201C}Shelf 4\u{201D}.")
        #expect(
            RequestChange.removed(request, unlinkedRecords: 2).sentence()
                == "Removed request #7: \u{201C}Shelf 4\u{201D}. The 2 records that answered it stay in History, answering no request now.")
    }
}
