import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Scanning
import Testing

@testable import Storage

@Suite struct InboxAndListTests {
    @Test func inboxListTableAndJSON() throws {
        let workspace = try Workspace()
        let db = try workspace.seeded()
        _ = try db.addRequest(title: "Bell \u{07} and escape \u{1B}[2J", kind: .note, now: testNow)
        let path = workspace.databaseURL.path

        let table = runCommand(["inbox", "list", "--db", path])
        let json = runCommand(["inbox", "list", "--json", "--db", path])

        #expect(table.status == 0 && json.status == 0)
        #expect(!table.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "control characters never reach a terminal")
        try Golden.check(table.output, "inbox-list.txt")
        try Golden.check(json.output, "inbox-list.json")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((parsed["requests"] as? [Any])?.count == 5)
    }

    @Test func historyListTableAndJSON() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let path = workspace.databaseURL.path

        let table = runCommand(["history", "list", "--db", path])
        let json = runCommand(["history", "list", "--json", "--limit", "3", "--db", path])

        #expect(table.status == 0 && json.status == 0)
        #expect(!table.output.unicodeScalars.contains { $0.value == 0x1B })
        try Golden.check(table.output, "history-list.txt")
        try Golden.check(workspace.normalize(json.output), "history-list.json")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((parsed["records"] as? [Any])?.count == 3)
    }

    @Test func emptyListsSayWhatToDo() throws {
        let workspace = try Workspace()
        _ = try AppDatabase.open(at: workspace.databaseURL)
        let path = workspace.databaseURL.path
        #expect(runCommand(["inbox", "list", "--db", path]).output.hasPrefix("No requests."))
        #expect(runCommand(["history", "list", "--db", path]).output.hasPrefix("No records."))
        #expect(runCommand(["history", "list", "--json", "--db", path]).output == "{\"version\":1,\"records\":[]}\n")
    }

    @Test func importReportsEveryBadEntryAndImportsNothing() throws {
        let workspace = try Workspace()
        let db = try AppDatabase.open(at: workspace.databaseURL)
        let file = workspace.url.appendingPathComponent("requests.json")
        try Data(
            """
            [
              {"title": "Scan the pallet", "kind": "barcode"},
              {"title": "   "},
              {"title": "Photograph it", "kind": "video"},
              "just a string",
              {"titel": "typo", "body": 3},
              {"title": "Fine too", "body": "with a body", "kind": "note", "status": "done", "id": 7}
            ]
            """.utf8
        ).write(to: file)

        let run = runCommand(["inbox", "import", file.path, "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        #expect(run.output == "")
        try Golden.check(workspace.normalize(run.errors + run.message + "\n"), "import-errors.txt")
        #expect(try db.inbox().requests.isEmpty, "all or nothing: nothing was imported")
    }

    @Test func importFromStandardInputAddsAllInOrder() throws {
        let workspace = try Workspace()
        let db = try AppDatabase.open(at: workspace.databaseURL)
        let input = Data(
            """
            {"version": 1, "requests": [
              {"title": "First", "kind": "photos"},
              {"title": "Second", "body": "B"}
            ]}
            """.utf8)

        let run = runCommand(["inbox", "import", "-", "--db", workspace.databaseURL.path], input: input)

        #expect(run.status == 0, "\(run.message)")
        #expect(run.output == "Imported 2 requests.\n")
        let requests = try db.inbox().requests
        #expect(requests.map(\.title).sorted() == ["First", "Second"])
        #expect(requests.first { $0.title == "First" }?.kind == .photos)
        #expect(requests.allSatisfy { $0.status == .pending })
    }

    @Test func inboxListJSONImportsBack() throws {
        let source = try Workspace()
        _ = try source.seeded()
        let listed = runCommand(["inbox", "list", "--json", "--db", source.databaseURL.path])

        let target = try Workspace()
        let db = try AppDatabase.open(at: target.databaseURL)
        let run = runCommand(["inbox", "import", "-", "--db", target.databaseURL.path], input: Data(listed.output.utf8))

        #expect(run.status == 0, "\(run.message)")
        #expect(try db.inbox().requests.count == 4)
    }

    @Test func notJSONIsOneProblem() {
        #expect(
            RequestImport.parse(Data("{nope".utf8))
                == .problems([
                    ImportProblem(
                        index: nil,
                        reason: "The file is not valid JSON: inbox import reads JSON only (an array of requests, or what tabshell inbox list --json prints).")
                ]))
    }

    @Test func inboxReopenAndRemoveSayWhatTheyDid() throws {
        let workspace = try Workspace()
        let db = try workspace.seeded()
        let path = workspace.databaseURL.path
        let request = try db.addRequest(title: "Shelf \u{1B}[2J 4", kind: .note, now: testNow)
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "a", requestID: request), now: testNow)
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "b", requestID: request), now: testNow)

        let reopen = runCommand(["inbox", "reopen", String(request), "--db", path])
        #expect(reopen.status == 0, "\(reopen.message)")
        #expect(reopen.output == "Request #\(request) is pending again: \u{201C}Shelf \u{241B}[2J 4\u{201D}.\n")
        #expect(runCommand(["inbox", "reopen", String(request), "--db", path]).output.contains("is pending already"))

        let remove = runCommand(["inbox", "remove", String(request), "--db", path])
        #expect(remove.status == 0, "\(remove.message)")
        #expect(
            remove.output
                == "Removed request #\(request): \u{201C}Shelf \u{241B}[2J 4\u{201D}. The 2 records that answered it stay in History, answering no request now.\n")

        for verb in ["reopen", "remove"] {
            let unknown = runCommand(["inbox", verb, String(request), "--db", path])
            #expect(unknown.status == 1)
            #expect(unknown.message == "Error: There is no request #\(request) (tabshell inbox list shows them).")
        }
    }

    @Test func inboxAddPrintsTheNewID() throws {
        let workspace = try Workspace()
        let run = runCommand(["inbox", "add", "--title", "Count the chairs", "--kind", "note", "--db", workspace.databaseURL.path])
        #expect(run.status == 0, "\(run.message)")
        #expect(run.output == "1\n")
    }

    @Test func inboxAddOnATerminalSaysWhatItDid() throws {
        let workspace = try Workspace()
        let run = runCommand(["inbox", "add", "--title", "Count the chairs", "--kind", "note", "--db", workspace.databaseURL.path], outputIsTerminal: true)
        #expect(run.status == 0, "\(run.message)")
        #expect(run.output == "Added request #1 (note): Count the chairs.\n")
    }
}

/// Every command logs to tabshell.log beside the database, at the level `--log-level` sets,
/// and never writes log lines to stdout or stderr.
@Suite struct CommandLoggingTests {
    @Test func commandsLogToTheFileAtTheChosenLevel() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let path = workspace.databaseURL.path
        let log = workspace.databaseURL.deletingLastPathComponent().appendingPathComponent("tabshell.log")

        let runs = [
            runCommand(["inbox", "list", "--db", path, "--log-level", "debug"]),
            runCommand(["history", "list", "--db", path]),
            runCommand(["history", "export", "--format", "csv", "--db", path]),
            runCommand(["doctor", "--db", path]),
        ]
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("info [") && text.contains("inbox list"))
        #expect(text.contains("history list"))
        #expect(text.contains("history export finished"))
        #expect(text.contains("doctor"))
        for run in runs { #expect(!run.output.contains("info [") && !run.errors.contains("info [")) }

        // At --log-level error, an info line is not written.
        try FileManager.default.removeItem(at: log)
        _ = runCommand(["inbox", "list", "--db", path, "--log-level", "error"])
        let after = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!after.contains("inbox list"))
    }
}
