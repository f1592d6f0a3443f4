import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

@Suite("Inbox")
struct InboxTests {
    @Test(arguments: StoreEngine.allCases) func listsPendingNewestFirstThenDoneNewestFirst(engine: StoreEngine) throws {
        // Given four requests, two of them answered
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let oldest = try db.add(title: "Oldest", kind: .barcode, now: Clock.minutesAgo(40))
        let older = try db.add(title: "Older", kind: .note, now: Clock.minutesAgo(30))
        _ = try db.add(title: "Newer", body: "two\nlines", kind: .product, now: Clock.minutesAgo(20))
        let newest = try db.add(title: "Newest", kind: .note, now: Clock.minutesAgo(10))
        _ = try db.commit(CaptureSubmission(kind: .note, note: "a", requestID: older), now: Clock.now)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "b", requestID: newest), now: Clock.now)

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

    @Test(arguments: StoreEngine.allCases) func pendingCountCountsBeyondTheLimit(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        for minute in 0..<5 {
            _ = try db.add(title: "Request \(minute)", kind: .barcode, now: Clock.minutesAgo(Double(minute)))
        }

        let inbox = try db.inbox(limit: 2)

        #expect(inbox.requests.map(\.title) == ["Request 0", "Request 1"])
        #expect(inbox.pendingCount == 5)
    }

    /// U+0000 in a text: SQLite would keep it only up to there, PostgreSQL refuses the statement;
    /// both engines refuse it with one sentence and write nothing.
    @Test(arguments: StoreEngine.allCases) func aNULInATextIsRefusedNotCut(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let refusal = StorageError.invalidInput("A text holds a NUL character (U+0000), which tabshell cannot store.")
        #expect(throws: refusal) { try db.add(title: "before\u{0}after", kind: .note, now: Clock.now) }
        #expect(throws: refusal) { try db.commit(CaptureSubmission(kind: .note, note: "before\u{0}after"), now: Clock.now) }
        #expect(try db.inbox().requests.isEmpty)
        #expect(try db.storedCount() == 0)

        _ = try db.add(title: "after it", kind: .note, now: Clock.now)
        #expect(try db.inbox().requests.map(\.title) == ["after it"])
    }

    @Test(arguments: StoreEngine.allCases) func storesTheTitleTrimmed(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.add(title: "  寿司 🍣  \n", kind: .note, now: Clock.now)
        #expect(try db.inbox().requests.map(\.title) == ["寿司 🍣"])
    }

    static let invalid: [(title: String, body: String, message: String)] = [
        ("", "", "A request needs a title."),
        (" \n\t ", "", "A request needs a title."),
        (String(repeating: "x", count: 501), "", "A request title can have at most 500 characters."),
        ("Fine", String(repeating: "y", count: 10_001), "A request body can have at most 10000 characters."),
    ]

    @Test(arguments: StoreEngine.allCases, invalid)
    func refusesInvalidRequestsAndWritesNothing(engine: StoreEngine, invalid: (title: String, body: String, message: String)) throws {
        let (title, body, message) = invalid
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)

        let error = #expect(throws: StorageError.self) {
            try db.add(title: title, body: body, kind: .note, now: Clock.now)
        }

        #expect(error?.message == message)
        #expect(try db.inbox().requests.isEmpty)
    }

    @Test(arguments: StoreEngine.allCases) func acceptsTheLongestTitle(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let title = String(repeating: "é", count: 500)
        _ = try db.add(title: title, body: String(repeating: "b", count: 10_000), kind: .note, now: Clock.now)
        #expect(try db.inbox().requests.first?.title == title)
    }
}
