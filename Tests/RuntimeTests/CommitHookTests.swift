import Foundation
import Runtime
import SQLiteStorage
import Storage
import TabShell
import Testing

/// The on-commit command (the answer goes back to whoever asked): run after each
/// Done with the record on its standard input, never in the way of a key.
@Suite("On-commit command", .serialized)
struct CommitHookTests {
    /// A note captured and committed with Ctrl-D.
    static func commitNote(_ app: RuntimeHarness, _ text: String) {
        app.press(.character("2"), .character("n"))
        app.type(text)
        app.press(.control("d"))
    }

    /// The record as the hook's input: its id and note (the app's own export encoding is tested
    /// with the real binary in the end-to-end journey).
    static func hook(_ command: String, timeout: Duration = .seconds(10), folder: RuntimeHarness.Folder) -> CommitHook {
        let database = folder.url.appendingPathComponent("tabshell.sqlite")
        return CommitHook(command: command, timeout: timeout) { id in
            guard let db = try? AppDatabase.open(at: database), let record = try? db.exportedRecord(id: id) else { return nil }
            return "{\"id\":\(record.id),\"note\":\"\(record.note ?? "")\"}"
        }
    }

    @Test func eachDoneRunsTheCommandWithTheRecordOnItsInput() throws {
        let folder = try RuntimeHarness.Folder()
        let out = folder.url.appendingPathComponent("hook.out")
        let app = try RuntimeHarness(folder: folder, onCommit: Self.hook("cat >> '\(out.path)'", folder: folder))
        try app.start()
        Self.commitNote(app, "first")
        Self.commitNote(app, "second")
        #expect(app.state.history.totalCount == 2)
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        while Date() < deadline, text.split(separator: "\n").count < 2 {
            text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(text == "{\"id\":1,\"note\":\"first\"}\n{\"id\":2,\"note\":\"second\"}\n", "one line per Done, in commit order")
    }

    @Test func aBatchReachesTheCommandWithEveryLine() throws {
        // The hook as the app builds it: the record read back and written as the export writes it
        let folder = try RuntimeHarness.Folder()
        let out = folder.url.appendingPathComponent("hook.out")
        let store = try AppDatabase.open(at: folder.url.appendingPathComponent("tabshell.sqlite"))
        let app = try RuntimeHarness(folder: folder, onCommit: CommitHook(command: "cat >> '\(out.path)'", store: OpeningStore(store)))
        try app.start()
        app.press(.character("2"), .character("s"))
        for code in ["4006381333931", "96385074", "4006381333931", "(01)09506000134352(17)201225(10)ABC"] {
            app.type(code)
            app.press(.enter)
        }
        app.press(.control("d"))
        #expect(app.state.history.totalCount == 1)
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        while Date() < deadline, !text.hasSuffix("\n") {
            text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            Thread.sleep(forTimeInterval: 0.02)
        }
        let record = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(record["kind"] as? String == "batch")
        let lines = try #require(record["lines"] as? [[String: Any]])
        #expect(lines.map { $0["value"] as? String } == ["4006381333931", "96385074", "(01)09506000134352(17)201225(10)ABC"])
        #expect(lines.map { $0["count"] as? Int } == [2, 1, 1])
        #expect((lines[2]["gs1"] as? [String: String])?["17"] == "2020-12-25")
        #expect(text == JSONText.record(try #require(try store.exportedRecord(id: 1))) + "\n", "exactly the export's line")
    }

    @Test func aSlowCommandDoesNotDelayTheNextKey() throws {
        let folder = try RuntimeHarness.Folder()
        let started = folder.url.appendingPathComponent("started")
        let finished = folder.url.appendingPathComponent("finished")
        let command = "touch '\(started.path)'; sleep 3; touch '\(finished.path)'"
        let app = try RuntimeHarness(folder: folder, onCommit: Self.hook(command, folder: folder))
        try app.start()
        Self.commitNote(app, "slow one")
        // Keys are answered while the command is still running.
        app.press(.character("3"))
        #expect(app.state.selectedTab == .history)
        #expect(app.state.history.totalCount == 1)
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: started.path), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(FileManager.default.fileExists(atPath: started.path), "the command started")
        #expect(!FileManager.default.fileExists(atPath: finished.path), "and had not finished when the key was answered")
        app.press(.character("1"))
        #expect(app.state.selectedTab == .inbox)
    }

    @Test func aFailingCommandIsShownOnceAndTheRecordStays() throws {
        let folder = try RuntimeHarness.Folder()
        let app = try RuntimeHarness(folder: folder, onCommit: Self.hook("cat > /dev/null; echo 'no route to chef' >&2; exit 3", folder: folder))
        try app.start()
        Self.commitNote(app, "for chef")
        #expect(app.awaitBackgroundWork { app.state.status?.kind == .error })
        let message = try #require(app.state.status?.text)
        #expect(message.contains("record #1") && message.contains("status 3") && message.contains("no route to chef"), "\(message)")
        #expect(app.state.history.totalCount == 1, "the record is saved all the same")
        app.press(.character("3"))
        app.press(.down)
        #expect(app.state.status == nil, "shown once: the next move clears it")
    }

    @Test func aCommandThatDoesNotReadItsInputIsFine() throws {
        let folder = try RuntimeHarness.Folder()
        let app = try RuntimeHarness(folder: folder, onCommit: Self.hook("exec 0<&-; exit 0", folder: folder))
        try app.start()
        for index in 0..<5 { Self.commitNote(app, "note \(index)") }
        app.press(.character("3"))
        #expect(app.state.history.totalCount == 5, "the app lives on when the command closed the pipe first")
    }

    @Test func aCommandThatRunsTooLongIsStopped() throws {
        let folder = try RuntimeHarness.Folder()
        let app = try RuntimeHarness(folder: folder, onCommit: Self.hook("sleep 31; true", timeout: .seconds(1), folder: folder))
        try app.start()
        Self.commitNote(app, "timed")
        #expect(app.awaitBackgroundWork(until: { app.state.status?.kind == .error }, timeout: 10))
        #expect(app.state.status?.text.contains("longer than 1 s") == true, "\(app.state.status?.text ?? "")")
        // Stopped with what it started: the shell's `sleep 31` child is gone too. It was sent
        // SIGKILL with its group, but its exit is the kernel's to finish, after the status shows:
        // wait for it (a `sleep 31` the stop missed would still be there after 5 s).
        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { entry in
                guard Int(entry) != nil, let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
                return command == Data("sleep\u{0}31\u{0}".utf8)
            }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        var left = try leftovers()
        while !left.isEmpty, ContinuousClock.now < deadline {
            usleep(20_000)
            left = try leftovers()
        }
        #expect(left.isEmpty, "left running: \(left)")
    }

    /// A record larger than a pipe holds (a batch of thousands of lines), given to a command that
    /// never reads it: the write waited for the command to end, so the timeout never began and
    /// the queue stalled for as long as the command ran. It is stopped at its timeout now.
    @Test func aRecordLargerThanThePipeDoesNotHoldTheTimeoutBack() throws {
        let folder = try RuntimeHarness.Folder()
        let line = "{\"note\":\"" + String(repeating: "x", count: 1 << 20) + "\"}"
        let hook = CommitHook(command: "sleep 33; true", timeout: .seconds(1)) { _ in line }
        let app = try RuntimeHarness(folder: folder, onCommit: hook)
        try app.start()
        Self.commitNote(app, "large")
        // Before, the status came only once `sleep 33` ended, 33 s on.
        #expect(app.awaitBackgroundWork(until: { app.state.status?.kind == .error }, timeout: 20))
        #expect(app.state.status?.text.contains("longer than 1 s") == true, "\(app.state.status?.text ?? "")")
    }
}
