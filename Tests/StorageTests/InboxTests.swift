import CaptureMode
import Foundation
import Storage
import TabShell
import Testing

@Suite("Inbox")
struct InboxTests {
    @Test func listsPendingNewestFirstThenDoneNewestFirst() throws {
        // Given four requests, two of them answered
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let oldest = try db.addRequest(title: "Oldest", kind: .barcode, now: Clock.minutesAgo(40))
        let older = try db.addRequest(title: "Older", kind: .note, now: Clock.minutesAgo(30))
        _ = try db.addRequest(title: "Newer", body: "two\nlines", kind: .product, now: Clock.minutesAgo(20))
        let newest = try db.addRequest(title: "Newest", kind: .note, now: Clock.minutesAgo(10))
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "a", requestID: older), now: Clock.now)
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "b", requestID: newest), now: Clock.now)

        // When
        let inbox = try db.inbox()

        // Then
        #expect(inbox.requests.map(\.title) == ["Newer", "Oldest", "Newest", "Older"])
        #expect(inbox.requests.map(\.status) == [.pending, .pending, .done, .done])
        #expect(inbox.pendingCount == 2)
        let first = try #require(inbox.requests.first)
        #expect(first.body == "two\nlines")
        #expect(first.kind == .product)
        #expect(first.createdAt == Clock.minutesAgo(20))
        #expect(inbox.requests.last?.id == older)
        #expect(inbox.requests[1].id == oldest)
    }

    @Test func pendingCountCountsBeyondTheLimit() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        for minute in 0..<5 {
            _ = try db.addRequest(title: "Request \(minute)", kind: .barcode, now: Clock.minutesAgo(Double(minute)))
        }

        let inbox = try db.inbox(limit: 2)

        #expect(inbox.requests.map(\.title) == ["Request 0", "Request 1"])
        #expect(inbox.pendingCount == 5)
    }

    @Test func storesTheTitleTrimmed() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        _ = try db.addRequest(title: "  寿司 🍣  \n", kind: .note, now: Clock.now)
        #expect(try db.inbox().requests.map(\.title) == ["寿司 🍣"])
    }

    static let invalid: [(title: String, body: String, message: String)] = [
        ("", "", "A request needs a title."),
        (" \n\t ", "", "A request needs a title."),
        (String(repeating: "x", count: 501), "", "A request title can have at most 500 characters."),
        ("Fine", String(repeating: "y", count: 10_001), "A request body can have at most 10000 characters."),
    ]

    @Test(arguments: invalid)
    func refusesInvalidRequestsAndWritesNothing(title: String, body: String, message: String) throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)

        let error = #expect(throws: StorageError.self) {
            try db.addRequest(title: title, body: body, kind: .note, now: Clock.now)
        }

        #expect(error?.message == message)
        #expect(try db.inbox().requests.isEmpty)
    }

    @Test func acceptsTheLongestTitle() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let title = String(repeating: "é", count: 500)
        _ = try db.addRequest(title: title, body: String(repeating: "b", count: 10_000), kind: .note, now: Clock.now)
        #expect(try db.inbox().requests.first?.title == title)
    }
}
