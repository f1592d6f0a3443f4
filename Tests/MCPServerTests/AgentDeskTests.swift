import CaptureMode
import Domain
import Foundation
import MCP
import SQLiteStorage
import Scanning
import Storage
import Synchronization
import TabShell
import TestSupport
import Testing

@testable import MCPServer

/// The tools against a real SQLite file: what an agent files is in the Inbox, a wait returns
/// the record a Done wrote, and every wrong argument is a sentence naming it.
@Suite("The agents' tools")
struct AgentDeskTests {
    let folder: TemporaryFolder
    let store: AppDatabase

    init() throws {
        folder = try TemporaryFolder(prefix: "AgentDesk")
        store = try AppDatabase.open(at: folder.file("tabshell.sqlite"))
    }

    func desk(_ configure: (inout AgentDesk.Limits) -> Void = { _ in }) -> AgentDesk {
        var limits = AgentDesk.Limits()
        limits.changePoll = .milliseconds(20)
        configure(&limits)
        return AgentDesk(store: store, person: "ada", limits: limits)
    }

    static func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { content in
            if case .text(let text, _, _) = content { return text }
            return nil
        }.joined(separator: "\n")
    }

    @Test func aFiledRequestIsPendingInTheInboxFromThePersonAndWhoAsks() async throws {
        let result = await desk().call(
            "request_capture", arguments: ["title": "Scan the pallet at door 3", "kind": "product", "from": "stock-agent"])
        #expect(result.isError == false)
        let requests = try store.requestListing(limit: nil)
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.title == "Scan the pallet at door 3")
        #expect(request.kind == .product)
        #expect(request.status == .pending)
        #expect(request.requester == "stock-agent")
        #expect(request.createdBy == "ada")
        #expect(result.structuredContent == .object(["request_id": .int(Int(request.id)), "status": "pending"]))
    }

    @Test func aWaitReturnsTheRecordThatAnsweredAsTheExportWritesIt() async throws {
        let desk = desk()
        let id = try store.addRequest(title: "Scan it", body: "", kind: .barcode, now: Date(), createdBy: "ada", requester: nil)
        let code = Barcode(value: "4006381333931", symbology: .ean13)
        // Done in another session: its own connection to the file, as the app's would be.
        let app = try AppDatabase.open(at: folder.file("tabshell.sqlite"))
        // On a thread of its own, not the cooperative pool a loaded test run may hold: the wait
        // must be waiting on the store, not on this test, when the Done lands.
        // A commit refused for a moment (a loaded run's busy file) is tried again, not lost.
        // Tried until it lands or the wait has ended; each refusal is kept for the failure's message.
        let refusals = Refusals()
        let done = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            while !refusals.waitEnded {
                do {
                    let submission = CaptureSubmission(kind: .barcode, barcode: code, requestID: id)
                    _ = try app.commitCapture(submission, staging: nil, now: Date(), capturedBy: "bo")
                    return
                } catch {
                    refusals.add("\(error)")
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        done.start()
        // The wait returns as soon as the answer is there; the timeout only bounds a failure.
        let result = await desk.call("wait_for_answer", arguments: ["request_id": .int(Int(id)), "timeout_seconds": 120])
        refusals.endWait()
        #expect(refusals.all.isEmpty, "the Done was refused: \(refusals.all.prefix(3))")
        #expect(result.isError == false)
        let text = Self.text(result)
        let lastID = try #require(try store.lastRecordID())
        let record = try #require(try store.exportedRecord(id: lastID))
        #expect(text.contains(JSONText.record(record)))
        #expect(text.contains("4006381333931"))
        #expect(text.hasPrefix("Request #\(id) was answered by record #\(record.row.id)"))
        // The same record as structured content, for an agent that reads fields, not text.
        let structured = try #require(result.structuredContent?.objectValue)
        #expect(structured["status"] == "answered")
        #expect(structured["request_id"] == .int(Int(id)) && structured["record_id"] == .int(Int(record.row.id)))
        let fields = try #require(structured["record"]?.objectValue)
        #expect(fields["barcode"]?.objectValue?["value"] == "4006381333931")
        #expect(fields["capturedBy"] == "bo" && fields["kind"] == "barcode")
    }

    /// `cancel_request` takes a request out of the Inbox (a record that answered it stays);
    /// `reopen_request` makes an answered one pending again; both say so in the Inbox's sentence.
    @Test func anAgentCancelsAndReopensItsRequests() async throws {
        let desk = desk()
        let asked = try store.addRequest(title: "Scan it", body: "", kind: .barcode, now: Date(), createdBy: "ada", requester: nil)
        let answered = try store.addRequest(title: "Shoot it", body: "", kind: .barcode, now: Date(), createdBy: "ada", requester: nil)
        _ = try store.commitCapture(
            CaptureSubmission(kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13), requestID: answered),
            staging: nil, now: Date(), capturedBy: "bo")

        let reopened = await desk.call("reopen_request", arguments: ["request_id": .int(Int(answered))])
        #expect(reopened.isError == false)
        #expect(Self.text(reopened) == "Request #\(answered) is pending again: \u{201C}Shoot it\u{201D}.")
        #expect(reopened.structuredContent == .object(["request_id": .int(Int(answered)), "status": "pending"]))
        #expect(try store.request(id: answered)?.status == .pending)

        let cancelled = await desk.call("cancel_request", arguments: ["request_id": .int(Int(asked))])
        #expect(cancelled.isError == false)
        #expect(Self.text(cancelled) == "Removed request #\(asked): \u{201C}Scan it\u{201D}.")
        #expect(cancelled.structuredContent == .object(["request_id": .int(Int(asked)), "status": "cancelled"]))
        #expect(try store.request(id: asked) == nil)

        let again = await desk.call("cancel_request", arguments: ["request_id": .int(Int(asked))])
        #expect(again.isError == true)
        #expect(Self.text(again) == "There is no request #\(asked): request_id must be an id that request_capture or list_requests gave.")
        let wrong = await desk.call("reopen_request", arguments: ["request_id": "7"])
        #expect(wrong.isError == true)
        #expect(Self.text(wrong).contains("request_id"), "\(Self.text(wrong))")
    }

    /// A request cancelled while an agent waits on it ends the wait at its next look, saying so,
    /// not at the timeout.
    @Test func aWaitOnARequestCancelledMeanwhileSaysItWasWithdrawn() async throws {
        let desk = desk()
        let id = try store.addRequest(title: "Scan it", body: "", kind: .barcode, now: Date(), createdBy: "ada", requester: nil)
        let other = try AppDatabase.open(at: folder.file("tabshell.sqlite"))
        // Removed once the wait has seen it pending (its first look), however slow the run.
        // A removal refused for a moment (a loaded run's busy file) is tried again, not lost.
        let refusals = Refusals()
        let remove = Thread {
            while desk.requestLooks == 0, !refusals.waitEnded { Thread.sleep(forTimeInterval: 0.01) }
            while !refusals.waitEnded {
                do {
                    _ = try other.removeRequest(id: id)
                    return
                } catch {
                    refusals.add("\(error)")
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        remove.start()
        let result = await desk.call("wait_for_answer", arguments: ["request_id": .int(Int(id)), "timeout_seconds": 120])
        refusals.endWait()
        #expect(refusals.all.isEmpty, "the removal was refused: \(refusals.all.prefix(3))")
        #expect(result.isError == false)
        #expect(Self.text(result).hasPrefix("Request #\(id) was withdrawn while waiting"), "\(Self.text(result))")
        #expect(result.structuredContent == .object(["request_id": .int(Int(id)), "status": "cancelled"]))
    }

    @Test func aWaitThatRunsOutSaysTheRequestIsStillPending() async throws {
        let id = try store.addRequest(title: "Scan it", body: "", kind: .barcode, now: Date(), createdBy: "ada", requester: nil)
        let result = await desk().call("wait_for_answer", arguments: ["request_id": .int(Int(id)), "timeout_seconds": 0.2])
        #expect(result.isError == false)
        #expect(Self.text(result).contains("still pending after 0.2 s"))
        #expect(result.structuredContent == .object(["request_id": .int(Int(id)), "status": "pending"]))
    }

    @Test(arguments: [
        ("request_capture", ["kind": "barcode"] as [String: Value], "title is required"),
        ("request_capture", ["title": "   "], "title must not be empty"),
        ("request_capture", ["title": "t", "kind": "spaceship"], "kind must be one of barcode, photos, product, note"),
        ("request_capture", ["title": "t", "colour": "red"], "request_capture takes no argument named colour"),
        ("request_capture", ["title": 42], "title must be a string"),
        ("wait_for_answer", [:], "request_id is required"),
        ("wait_for_answer", ["request_id": 1, "timeout_seconds": 1e12], "timeout_seconds must be a number of seconds from 0 to 600"),
        ("wait_for_answer", ["request_id": 1, "timeout_seconds": -1], "timeout_seconds must be a number of seconds from 0 to 600"),
        ("wait_for_answer", ["request_id": 0], "request_id must be a whole number"),
        ("wait_for_answer", ["request_id": 1.5], "request_id must be a whole number"),
        ("wait_for_answer", ["request_id": 999, "timeout_seconds": 0], "There is no request #999"),
        ("list_requests", ["limit": 100_000], "limit must be a whole number from 1 to 100"),
        ("list_requests", ["status": "lost"], "status must be one of pending, answered, all"),
        ("get_record", ["record_id": 7], "There is no record #7"),
        ("open_pod_bay_doors", [:], "There is no tool named open_pod_bay_doors"),
    ])
    func aWrongArgumentIsOneSentenceNamingIt(tool: String, arguments: [String: Value], sentence: String) async {
        let result = await desk().call(tool, arguments: arguments)
        #expect(result.isError == true)
        #expect(Self.text(result).contains(sentence), "\(Self.text(result))")
    }

    @Test func anOverlongTitleOrBodyIsRefusedWithItsLimit() async throws {
        let title = await desk().call("request_capture", arguments: ["title": .string(String(repeating: "x", count: 501))])
        #expect(Self.text(title).contains("title can have at most 500 characters (it has 501)"))
        let body = await desk().call("request_capture", arguments: ["title": "t", "body": .string(String(repeating: "b", count: 10_001))])
        #expect(Self.text(body).contains("body can have at most 10000 characters"))
        #expect(try store.requestListing(limit: nil).isEmpty)
    }

    @Test func aFloodOfRequestsIsLimitedAndSaysWhenToTryAgain() async throws {
        // A clock that stands still: the bucket refills with time, and a loaded run is slow.
        let moment = Date()
        var limits = AgentDesk.Limits()
        limits.requestsPerMinute = 5
        let desk = AgentDesk(store: store, person: "ada", limits: limits, now: { moment })
        var refused: [String] = []
        for index in 0..<20 {
            let result = await desk.call("request_capture", arguments: ["title": .string("Flood \(index)")])
            if result.isError == true { refused.append(Self.text(result)) }
        }
        #expect(try store.requestListing(limit: nil).count == 5)
        #expect(refused.count == 15)
        #expect(refused.first?.contains("at most 5 a minute; try again in") == true)
    }

    @Test func wavesOfWaitsBeyondTheLimitAreRefusedNotQueued() async throws {
        let desk = desk { $0.concurrentWaits = 2 }
        let id = try store.addRequest(title: "Scan it", body: "", kind: .barcode, now: Date(), createdBy: "ada", requester: nil)
        try desk.beginWait()
        try desk.beginWait()
        let result = await desk.call("wait_for_answer", arguments: ["request_id": .int(Int(id)), "timeout_seconds": 5])
        #expect(result.isError == true)
        #expect(Self.text(result).contains("At most 2 waits can run at once"))
        desk.endWait()
        desk.endWait()
    }

    @Test func titlesQuotedBackArePrintable() async throws {
        let result = await desk().call("request_capture", arguments: ["title": "Scan \u{1B}]52;c;aGk=\u{07} this"])
        #expect(result.isError == false)
        #expect(!Self.text(result).unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func aSearchAndARecordComeAsTextAndAsStructuredContent() async throws {
        for value in ["4006381333931", "96385074"] {
            let code = Barcode(value: value, symbology: value.count == 13 ? .ean13 : .ean8)
            _ = try store.commitCapture(CaptureSubmission(kind: .barcode, barcode: code), staging: nil, now: Date(), capturedBy: "bo")
        }
        let found = await desk().call("search_records", arguments: ["query": "96385074"])
        let records = try #require(found.structuredContent?.objectValue?["records"]?.arrayValue)
        #expect(records.count == 1)
        let listed = try #require(records.first?.objectValue)
        #expect(listed["barcode"]?.objectValue?["value"] == "96385074" && listed["photoCount"] == .int(0))
        #expect(Self.text(found).contains("\"value\":\"96385074\""))

        let id = try #require(listed["id"]?.intValue)
        let whole = await desk().call("get_record", arguments: ["record_id": .int(id)])
        let structured = try #require(whole.structuredContent?.objectValue)
        #expect(structured["record_id"] == .int(id) && structured["status"] == nil)
        #expect(structured["record"]?.objectValue?["barcode"]?.objectValue?["symbology"] == "ean8")

        let none = await desk().call("search_records", arguments: ["query": "nothing like it"])
        #expect(none.structuredContent == .object(["records": []]))
    }

    @Test func listsAreBoundedAndFiltered() async throws {
        for index in 0..<30 {
            _ = try store.addRequest(title: "R\(index)", body: "", kind: .note, now: Date(), createdBy: nil, requester: nil)
        }
        let result = await desk().call("list_requests", arguments: ["status": "pending", "limit": 7])
        #expect(Self.text(result).split(separator: "\n").count == 8)
        let listed = try #require(result.structuredContent?.objectValue?["requests"]?.arrayValue)
        #expect(listed.compactMap { $0.objectValue?["title"]?.stringValue } == (23..<30).reversed().map { "R\($0)" })
        let answered = await desk().call("list_requests", arguments: ["status": "answered"])
        #expect(Self.text(answered) == "No answered requests.")
        #expect(answered.structuredContent == .object(["requests": []]))
    }
}

/// What another connection's write met while a wait ran (a loaded run's busy file), and whether
/// the wait has ended (the writer stops trying then).
final class Refusals: Sendable {
    private let state = Mutex<(messages: [String], ended: Bool)>(([], false))
    func add(_ message: String) { state.withLock { $0.messages.append(message) } }
    func endWait() { state.withLock { $0.ended = true } }
    var waitEnded: Bool { state.withLock { $0.ended } }
    var all: [String] { state.withLock { $0.messages } }
}
