import Foundation
import TestSupport
import Testing

/// Requests come from someone and the answer goes back to them (seed 003), on the
/// real binary: a request added `--from chef` in a shell, answered in the app, the record handed
/// to the on-commit command and to a `history export --follow` running beside it.
@Suite(.serialized, .tags(.e2e)) struct RequesterEndToEndTests {
    @Test func chefsRequestIsAnsweredAndTheAnswerGoesBackToChef() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("requester-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared) }
        let db = shared.appendingPathComponent("team.sqlite").path
        let hookOutput = shared.appendingPathComponent("hook.jsonl").path
        let added = try TmuxSession.spawnAndWait(
            [TmuxSession.binary.path, "inbox", "add", "--db", db, "--title", "Describe the dented box", "--kind", "note", "--from", "chef"],
            stdout: shared.appendingPathComponent("add.out").path)
        #expect(added == 0)

        // A consumer following History, and the app with an on-commit command (which also sleeps,
        // so it is still running when the next keys are pressed).
        let follow = try TmuxSession(
            "\"$TABSHELL\" history export --follow --db \(TmuxSession.quote(db)) > \(TmuxSession.quote(shared.appendingPathComponent("follow.jsonl").path))",
            columns: 80, rows: 24)
        defer { _ = try? follow.press("C-c") }
        let app = try TabShellEndToEndTests.launch(
            "--db \(TmuxSession.quote(db)) --on-commit \(TmuxSession.quote("cat >> \(TmuxSession.quote(hookOutput)); sleep 5"))")
        let inbox = try app.waitFor(text: "Describe the dented box")
        #expect(inbox.contains("chef"), "the Inbox shows who asked")

        try app.press("Enter")
        try app.waitFor(text: "Capture · Note")
        try app.type("Corner crushed, contents fine")
        try app.press("C-d")
        try app.waitFor(text: "Saved")
        // The on-commit command is still sleeping: keys are answered all the same.
        try app.press("3")
        let history = try app.waitFor(text: "[ History")
        #expect(history.contains("Corner crushed"))
        try app.press("Enter")
        let detail = try app.waitFor(text: "From")
        #expect(detail.contains("chef"), "the record's detail names who asked")

        // The on-commit command got the record as one JSON line, request and requester included.
        let deadline = Date().addingTimeInterval(10)
        var line = ""
        while Date() < deadline, !line.hasSuffix("\n") {
            line = (try? String(contentsOfFile: hookOutput, encoding: .utf8)) ?? ""
            Thread.sleep(forTimeInterval: 0.05)
        }
        let record = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(record["note"] as? String == "Corner crushed, contents fine")
        let request = try #require(record["request"] as? [String: Any])
        #expect(request["from"] as? String == "chef")
        #expect(request["status"] as? String == "done")
        // And the consumer following History printed the same record.
        let followed = try String(contentsOf: shared.appendingPathComponent("follow.jsonl"), encoding: .utf8)
        #expect(followed == line, "one line, the same record")
        try app.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(app)
    }
}
