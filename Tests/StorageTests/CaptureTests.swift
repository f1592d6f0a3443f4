import CaptureMode
import Domain
import Foundation
import GRDB
import Scanning
import TabShell
import Testing

@testable import Storage

@Suite("Committing captures")
struct CaptureTests {
    @Test(arguments: StoreEngine.allCases) func writesOneRecordAndMarksTheRequestDone(engine: StoreEngine) throws {
        // Given a pending request
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Scan aisle 4", kind: .barcode, now: Clock.minutesAgo(60))
        let code = Barcode(value: "4006381333931", symbology: .ean13)

        // When a capture answers it
        let captureID = try db.commit(
            CaptureSubmission(kind: .barcode, barcode: code, requestID: requestID), now: Clock.now)

        // Then there is one record, and the request is done at the capture's time
        #expect(try db.historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount == 1)
        let row = try #require(try db.recordDetail(id: captureID)?.record)
        #expect(
            row
                == HistoryRow(
                    id: captureID, kind: .barcode, barcode: code, note: nil,
                    requestID: requestID, requestTitle: "Scan aisle 4", createdAt: Clock.now, requestAfterDeletion: .pendingAgain))
        let inbox = try db.inbox()
        #expect(inbox.requests.map(\.status) == [.done])
        #expect(inbox.pendingCount == 0)
        let doneAt = try db.requestListing(limit: nil).first { $0.id == requestID }?.doneAt
        #expect(doneAt == Clock.now)
    }

    @Test(arguments: StoreEngine.allCases) func marksTheRequestDoneInTheSameTransactionAsTheInsert(engine: StoreEngine) throws {
        // Given a pending request, and a trigger that makes every capture insert fail
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Note it", kind: .note, now: Clock.minutesAgo(5))
        try temp.backDoor(engine).refuseInserts(into: .records, message: "capture refused")

        // When a capture answering the request is committed (the request update runs first)
        let error = #expect(throws: StorageError.self) {
            try db.commit(CaptureSubmission(kind: .note, note: "x", requestID: requestID), now: Clock.now)
        }

        // Then the request update was rolled back with the failed insert
        #expect(error?.message.contains("capture refused") == true)
        #expect(try db.inbox().pendingCount == 1)
        #expect(try db.inbox().requests.map(\.status) == [.pending])
        #expect(try db.storedCount() == 0)
    }

    @Test(arguments: StoreEngine.allCases) func writesNothingWhenTheRequestIsGone(engine: StoreEngine) throws {
        // Given one record and no request 999
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "earlier"), now: Clock.minutesAgo(1))

        // When
        let error = #expect(throws: StorageError.self) {
            try db.commit(CaptureSubmission(kind: .note, note: "late", requestID: 999), now: Clock.now)
        }

        // Then
        #expect(error == .requestNotFound(id: 999))
        #expect(error?.message == "The request this capture answers no longer exists.")
        #expect(try db.historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount == 1)
    }

    @Test(arguments: StoreEngine.allCases) func aSecondAnswerIsKeptAndTheRequestStaysDone(engine: StoreEngine) throws {
        // Given a request answered once
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Twice", kind: .note, now: Clock.minutesAgo(30))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "first", requestID: requestID), now: Clock.minutesAgo(20))

        // When it is answered again
        let second = try db.commit(CaptureSubmission(kind: .note, note: "second", requestID: requestID), now: Clock.now)

        // Then both records exist, and the request stays done at the first answer's time
        #expect(try db.historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount == 2)
        #expect(try db.recordDetail(id: second)?.record.requestTitle == "Twice")
        #expect(try db.inbox().requests.map(\.status) == [.done])
        let doneAt = try db.requestListing(limit: nil).first { $0.id == requestID }?.doneAt
        #expect(doneAt == Clock.minutesAgo(20))
    }

    @Test(arguments: StoreEngine.allCases) func keepsNotesExactly(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let note = "寿司 🍣 sushi\nsecond line\n\n  indented"

        let id = try db.commit(CaptureSubmission(kind: .note, note: note), now: Clock.now)

        let row = try #require(try db.recordDetail(id: id)?.record)
        #expect(row.note == note)
        #expect(row.barcode == nil)
        #expect(row.requestID == nil && row.requestTitle == nil)
        #expect(row.summary == "寿司 🍣 sushi")
    }

    @Test(arguments: StoreEngine.allCases) func refusesANoteThatIsTooLong(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let note = String(repeating: "n", count: 10_001)

        #expect(throws: StorageError.invalidInput("A note can have at most 10000 characters.")) {
            try db.commit(CaptureSubmission(kind: .note, note: note), now: Clock.now)
        }
        #expect(try db.historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount == 0)
    }

    @Test(arguments: StoreEngine.allCases) func recordOfAnUnknownIDIsNil(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        #expect(try db.recordDetail(id: 42) == nil)
    }
}
