import Domain
import Foundation
import Synchronization
import TestSupport
import Testing

/// tabshell on a PostgreSQL server, on the real binary in tmux: a request added from
/// one host is captured in the app on another, a third host's request appears without a key
/// press, the server killed mid-session is said on the status line and in the heading of every
/// screen (tabs, capture) while the app goes on, Done then fails with the capture kept, and
/// everything resumes, the heading's notice gone, when the server is back. The server
/// is one of this suite's own (scripts/pg-test-server with its own state file), so killing it
/// disturbs no other suite.
@Suite(.serialized, .tags(.e2e, .postgres)) struct PostgresEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pg-test-server").path

    /// Runs `scripts/pg-test-server COMMAND` with the state file in `folder`; its output.
    @discardableResult
    static func server(_ command: String, in folder: URL) throws -> String {
        let output = folder.appendingPathComponent("server-\(command).out").path
        let state = folder.appendingPathComponent("pg.state").path
        let status = try TmuxSession.spawnAndWait(
            ["/bin/sh", "-c", "TABSHELL_PG_STATE=\(TmuxSession.quote(state)) \(TmuxSession.quote(script)) \(command) 2>&1"], stdout: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard status == 0 else { throw HarnessError("pg-test-server \(command) failed: \(text)") }
        return text
    }

    @Test func twoHostsShareOneStoreAndTheAppRidesOutTheServerGoingAway() throws {
        let database = try PrivatePostgres(named: "pg-e2e")
        defer { withExtendedLifetime(database) {} }
        let shared = database.folder
        let url = database.url
        let binary = TmuxSession.binary.path
        func otherHost(_ arguments: [String]) throws -> (Int32, String) {
            let output = shared.appendingPathComponent("host-b-\(UUID().uuidString).out").path
            let command = ([binary] + arguments).map(TmuxSession.quote).joined(separator: " ")
            let status = try TmuxSession.spawnAndWait(
                ["/bin/sh", "-c", "XDG_DATA_HOME=\(TmuxSession.quote(shared.appendingPathComponent("host-b").path)) \(command) 2>&1"],
                stdout: output)
            return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }

        // Unreachable at start: one sentence, a non-zero exit.
        let (refused, sentence) = try otherHost(["inbox", "list", "--db", "postgres://nobody@127.0.0.1:1/none?sslmode=disable"])
        #expect(refused != 0)
        #expect(sentence.contains("Cannot reach PostgreSQL at 127.0.0.1:1: connection refused."), "\(sentence)")

        #expect(try otherHost(["inbox", "add", "--db", url, "--title", "Count the pallets", "--from", "chef"]).0 == 0)
        // A consumer following History from a third host, and the app with an on-commit command.
        let followed = shared.appendingPathComponent("follow.jsonl").path
        let hook = shared.appendingPathComponent("hook.jsonl").path
        let follow = try TmuxSession(
            "XDG_DATA_HOME=\(TmuxSession.quote(shared.appendingPathComponent("host-c").path)) \"$TABSHELL\" history export --follow --since 0 > \(TmuxSession.quote(followed))",
            columns: 80, rows: 24, environment: ["TABSHELL_DATABASE_URL": url])
        defer { _ = try? follow.press("C-c") }
        let app = try TabShellEndToEndTests.launch(
            "--on-commit \(TmuxSession.quote("cat >> \(TmuxSession.quote(hook))"))", environment: ["TABSHELL_DATABASE_URL": url])
        let inbox = try app.waitFor(text: "Count the pallets")
        #expect(inbox.contains("chef"))

        try app.press("Enter")
        try app.waitFor(text: "Capture · Barcode")
        try app.type("4006381333931")
        try app.press("Enter")
        try app.waitFor(text: "EAN-13")
        try app.press("C-d")
        try app.waitFor(text: "Saved")

        // Another host's request appears without a key press (LISTEN, not polling).
        #expect(try otherHost(["inbox", "add", "--db", url, "--title", "From the other site"]).0 == 0)
        try app.waitFor(text: "From the other site")

        // The server goes away: said on the status line, and in the heading of every screen
        // until it is back (the status line goes with the next key; History's rows are old).
        try database.control("kill")
        try app.waitFor(text: "Cannot reach PostgreSQL")
        func headingSaysUnreachable(_ screen: String) -> Bool {
            let top = screen.split(separator: "\n", omittingEmptySubsequences: false).prefix(2).joined(separator: "\n")
            return top.contains("\u{2717} ") && (top.contains("unreachable") || top.contains("Cannot reach PostgreSQL"))
        }
        try app.press("3")
        let stale = try app.waitFor("History's heading saying the server is unreachable") { $0.contains("[ History ]") && headingSaysUnreachable($0) }
        #expect(stale.contains("4006381333931"), "the rows read before stay, marked by the heading")
        try app.press("4")
        try app.waitFor("Settings' heading saying so") { $0.contains("[ Settings ]") && headingSaysUnreachable($0) }
        try app.press("2")
        try app.waitFor("the picker saying so") { $0.contains("What do you want to capture?") && headingSaysUnreachable($0) }
        try app.press("n")
        try app.waitFor("the capture saying so") { $0.contains("Capture · Note") && headingSaysUnreachable($0) }
        try app.type("Forklift left at dock 4")
        // The heading already names the server, so Done's failure is waited for where Done
        // says it: the row above the key hints, once the note is on screen.
        try app.waitFor(text: "Forklift left at dock 4")
        try app.press("C-d")
        let failed = try app.waitFor("Done's failure above the key hints") { screen in
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
            return rows.contains { $0.contains("\u{2717} Cannot reach PostgreSQL") && !$0.contains("\u{2500}") }
        }
        #expect(failed.contains("Capture · Note"), "the capture stays open when Done fails")
        #expect(failed.contains("Forklift left at dock 4"))

        // Back: said, the heading is itself again, and Done goes through once.
        try database.control("revive")
        try app.waitFor(text: "reachable again", timeout: 15)
        try app.waitFor("the heading without the notice") { $0.contains("Capture · Note") && !headingSaysUnreachable($0) }
        try app.press("C-d")
        try app.waitFor(text: "Saved")
        try app.press("3")
        let history = try app.waitFor(text: "Forklift left at dock 4")
        #expect(history.contains("2 records"), "\(history)")
        try app.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(app)

        // The follower and the on-commit command each got both records, once, in commit order.
        func lines(_ path: String) -> [String] {
            let deadline = Date().addingTimeInterval(10)
            var found: [String] = []
            while Date() < deadline {
                found = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                if found.count >= 2 { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return found
        }
        let hookLines = lines(hook)
        #expect(hookLines.count == 2, "\(hookLines)")
        #expect(hookLines.last?.contains("Forklift left at dock 4") == true)
        #expect(lines(followed) == hookLines, "the follower printed what the on-commit command got")

        // The other host sees both records' requests and notes: the pallet request answered.
        let (listed, list) = try otherHost(["inbox", "list", "--db", url])
        #expect(listed == 0)
        #expect(list.contains("done") && list.contains("Count the pallets"), "\(list)")
    }

    /// `history export --follow` whose server goes away in the middle of a read (it is held in
    /// a write to a full pipe when the server is killed, so its next page is read from no
    /// server): it waits, and once the server is back it reads on after the last record it
    /// printed — every record once, in order, and the ones committed later too.
    @Test func aFollowerWhoseServerGoesAwayMidReadGoesOnAfterItsLastRecord() throws {
        let database = try PrivatePostgres(named: "pg-follow")
        defer { withExtendedLifetime(database) {} }
        let folder = database.folder
        let binary = TmuxSession.binary
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        func importNotes(_ range: ClosedRange<Int>) throws {
            let padding = String(repeating: "x", count: 300)
            let file = folder.appendingPathComponent("notes-\(range.lowerBound).jsonl")
            try range.map { #"{"kind":"note","note":"note \#($0) \#(padding)"}"# + "\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
            let run = Process()
            run.executableURL = binary
            run.arguments = ["history", "import", "--db", database.url, file.path]
            run.environment = environment
            try run.run()
            run.waitUntilExit()
            try #require(run.terminationStatus == 0, "history import of \(range) failed")
        }
        let total = 1_000
        try importNotes(1...total)

        let follower = Process()
        let pipe = Pipe()
        follower.executableURL = binary
        follower.arguments = ["history", "export", "--follow", "--since", "0", "--db", database.url]
        follower.environment = environment
        follower.standardOutput = pipe
        follower.standardError = FileHandle.nullDevice
        try follower.run()
        defer {
            if follower.isRunning {
                kill(follower.processIdentifier, SIGKILL)
                follower.waitUntilExit()
            }
        }
        // Held in a write: the pipe (64 KiB) is nearly full and nobody reads it yet.
        let reader = pipe.fileHandleForReading.fileDescriptor
        var queued: Int32 = 0
        let deadline = Date().addingTimeInterval(30)
        while ioctl(reader, UInt(FIONREAD), &queued) == 0, queued < 60_000 {
            try #require(Date() < deadline && follower.isRunning, "the follower never filled its pipe (\(queued) bytes)")
            Thread.sleep(forTimeInterval: 0.02)
        }
        try database.control("kill")

        // Read everything it prints from now on.
        let printed = Mutex(Data())
        let drain = Thread {
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                printed.withLock { $0.append(chunk) }
            }
        }
        drain.start()
        func ids() -> [Int] {
            let text = printed.withLock { String(decoding: $0, as: UTF8.self) }
            return text.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
            }
        }
        func waitForIDs(_ count: Int) throws {
            let deadline = Date().addingTimeInterval(30)
            while ids().count < count {
                try #require(follower.isRunning, "the follower ended (status \(follower.terminationStatus)) after \(ids().count) records")
                try #require(Date() < deadline, "\(ids().count) of \(count) records printed")
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        try database.control("revive")
        try waitForIDs(total)
        try importNotes(total + 1...total + 3)
        try waitForIDs(total + 3)
        let seen = ids()
        #expect(seen.count == total + 3, "every record once")
        #expect(seen == seen.sorted() && Set(seen).count == seen.count, "in commit order, none twice")
        kill(follower.processIdentifier, SIGINT)
        follower.waitUntilExit()
        #expect(follower.terminationStatus == 0)
    }

    /// `tabshell db copy` on the real binary: an SQLite file with a GS1 record, a batch and a
    /// photo arrives whole on an empty PostgreSQL database, the summary says what went (the photo's
    /// size in bytes, both checksums), both exports hold the same records with the same uids, and
    /// a second copy is refused with the target as it was.
    @Test func dbCopyMovesAFileToAnEmptyServerAndRefusesASecond() throws {
        let database = try PrivatePostgres(named: "pg-copy")
        defer { withExtendedLifetime(database) {} }
        let folder = database.folder
        let source = folder.appendingPathComponent("source.sqlite").path
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let output = folder.appendingPathComponent("run-\(UUID().uuidString).out").path
            let command = ([TmuxSession.binary.path] + arguments).map(TmuxSession.quote).joined(separator: " ")
            let status = try TmuxSession.spawnAndWait(
                ["/bin/sh", "-c", "XDG_DATA_HOME=\(TmuxSession.quote(folder.appendingPathComponent("data").path)) \(command) 2>&1"],
                stdout: output)
            return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }
        let photo = PhotoCaptureEndToEndTests.png(width: 20, height: 10)
        try photo.write(to: folder.appendingPathComponent("shelf.png"))
        let records = [
            #"{"kind":"barcode","createdAt":"2026-01-02T10:00:00Z","barcode":{"value":"(01)09501101020917(17)251231(10)LOT7","symbology":"gs1_128"},"note":"gs1"}"#,
            #"{"kind":"batch","createdAt":"2026-01-02T11:00:00Z","lines":[{"value":"4006381333931","symbology":"ean13","count":2}]}"#,
            #"{"kind":"photos","createdAt":"2026-01-02T12:00:00Z","photos":[{"path":""# + folder.appendingPathComponent("shelf.png").path
                + #""}],"note":"the shelf"}"#,
        ]
        let input = folder.appendingPathComponent("records.jsonl")
        try Data((records.joined(separator: "\n") + "\n").utf8).write(to: input)
        let imported = try run(["history", "import", input.path, "--db", source])
        #expect(imported.status == 0 && imported.output.contains("Imported 3 records."), "\(imported.output)")

        let copied = try run(["db", "copy", "--from", source, "--to", database.url])
        #expect(copied.status == 0, "\(copied.output)")
        let summary = copied.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(summary.contains("records   3"), "\(copied.output)")
        #expect(summary.contains("photos    1 (1 distinct, \(photo.count) B)"), "\(copied.output)")
        let checksums = summary.filter { $0.hasPrefix("checksum of the") }.compactMap { $0.split(separator: " ").dropFirst(4).first }
        #expect(checksums.count == 2 && checksums[0] == checksums[1] && checksums[0].hasPrefix("sha256:"), "\(copied.output)")

        // Both sides export the same records, uids and GS1 fields included; only the photo's
        // file differs (each store keeps its own).
        func exported(_ db: String) throws -> [String] {
            let export = try run(["history", "export", "--format", "jsonl", "--db", db])
            #expect(export.status == 0, "\(export.output)")
            return export.output.split(separator: "\n").map { String($0).replacing(/"path":"[^"]*"/, with: "") }
        }
        let before = try exported(source)
        #expect(before.count == 3 && before.allSatisfy { $0.contains(#""uid":""#) })
        #expect(try exported(database.url) == before)

        // The target is not empty now: a second copy says so and adds nothing.
        let again = try run(["db", "copy", "--from", source, "--to", database.url])
        #expect(again.status != 0)
        #expect(again.output.contains("already holds 0 requests, 3 records and 0 products"), "\(again.output)")
        #expect(try exported(database.url) == before)
    }
}
