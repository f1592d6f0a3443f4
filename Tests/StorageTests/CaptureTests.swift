import CaptureMode
import Foundation
import GRDB
import TabShell
import Testing

@testable import Storage

@Suite("Committing captures")
struct CaptureTests {
    @Test func writesOneRecordAndMarksTheRequestDone() throws {
        // Given a pending request
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let requestID = try db.addRequest(title: "Scan aisle 4", kind: .barcode, now: Clock.minutesAgo(60))
        let code = Barcode(value: "4006381333931", symbology: .ean13)

        // When a capture answers it
        let captureID = try db.commitCapture(
            CaptureSubmission(kind: .barcode, barcode: code, requestID: requestID), now: Clock.now)

        // Then there is one record, and the request is done at the capture's time
        #expect(try db.historyCount() == 1)
        let row = try #require(try db.record(id: captureID))
        #expect(
            row
                == HistoryRow(
                    id: captureID, kind: .barcode, barcode: code, note: nil,
                    requestID: requestID, requestTitle: "Scan aisle 4", createdAt: Clock.now))
        let inbox = try db.inbox()
        #expect(inbox.requests.map(\.status) == [.done])
        #expect(inbox.pendingCount == 0)
        let doneAt = try rawQueue(temp.databaseURL).read { db in
            try Date.fetchOne(db, sql: "SELECT doneAt FROM request WHERE id = ?", arguments: [requestID])
        }
        #expect(doneAt == Clock.now)
    }

    @Test func marksTheRequestDoneInTheSameTransactionAsTheInsert() throws {
        // Given a pending request, and a trigger that makes every capture insert fail
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let requestID = try db.addRequest(title: "Note it", kind: .note, now: Clock.minutesAgo(5))
        try rawQueue(temp.databaseURL).write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_capture BEFORE INSERT ON capture
                    BEGIN SELECT RAISE(ABORT, 'capture refused'); END
                    """)
        }

        // When a capture answering the request is committed (the request update runs first)
        let error = #expect(throws: StorageError.self) {
            try db.commitCapture(CaptureSubmission(kind: .note, note: "x", requestID: requestID), now: Clock.now)
        }

        // Then the request update was rolled back with the failed insert
        #expect(error?.message.contains("capture refused") == true)
        #expect(try db.inbox().pendingCount == 1)
        #expect(try db.historyCount() == 0)
    }

    @Test func writesNothingWhenTheRequestIsGone() throws {
        // Given one record and no request 999
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "earlier"), now: Clock.minutesAgo(1))

        // When
        let error = #expect(throws: StorageError.self) {
            try db.commitCapture(CaptureSubmission(kind: .note, note: "late", requestID: 999), now: Clock.now)
        }

        // Then
        #expect(error == .requestNotFound(id: 999))
        #expect(error?.message == "The request this capture answers no longer exists.")
        #expect(try db.historyCount() == 1)
    }

    @Test func aSecondAnswerIsKeptAndTheRequestStaysDone() throws {
        // Given a request answered once
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let requestID = try db.addRequest(title: "Twice", kind: .note, now: Clock.minutesAgo(30))
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "first", requestID: requestID), now: Clock.minutesAgo(20))

        // When it is answered again
        let second = try db.commitCapture(CaptureSubmission(kind: .note, note: "second", requestID: requestID), now: Clock.now)

        // Then both records exist, and the request stays done at the first answer's time
        #expect(try db.historyCount() == 2)
        #expect(try db.record(id: second)?.requestTitle == "Twice")
        #expect(try db.inbox().requests.map(\.status) == [.done])
        let doneAt = try rawQueue(temp.databaseURL).read { db in
            try Date.fetchOne(db, sql: "SELECT doneAt FROM request WHERE id = ?", arguments: [requestID])
        }
        #expect(doneAt == Clock.minutesAgo(20))
    }

    @Test func keepsNotesExactly() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let note = "寿司 🍣 sushi\nsecond line\n\n  indented"

        let id = try db.commitCapture(CaptureSubmission(kind: .note, note: note), now: Clock.now)

        let row = try #require(try db.record(id: id))
        #expect(row.note == note)
        #expect(row.barcode == nil)
        #expect(row.requestID == nil && row.requestTitle == nil)
        #expect(row.summary == "寿司 🍣 sushi")
    }

    @Test func refusesANoteThatIsTooLong() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let note = String(repeating: "n", count: 10_001)

        #expect(throws: StorageError.invalidInput("A note can have at most 10000 characters.")) {
            try db.commitCapture(CaptureSubmission(kind: .note, note: note), now: Clock.now)
        }
        #expect(try db.historyCount() == 0)
    }

    @Test func recordOfAnUnknownIDIsNil() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        #expect(try db.record(id: 42) == nil)
    }
}
