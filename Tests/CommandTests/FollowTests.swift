import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Scanning
import Storage
import Testing

/// `tabshell history export --follow` as a consumer would run it: the real binary in its own
/// process, other processes' commits arriving while it runs (answers go back to
/// whoever asked).
@Suite(.serialized) struct FollowTests {
    /// A running `history export --follow`, its output going to a file.
    final class Consumer {
        let process = Process()
        let outputURL: URL
        let logURL: URL

        init(_ workspace: Workspace, arguments: [String] = []) throws {
            outputURL = workspace.url.appendingPathComponent("follow-\(UUID().uuidString).jsonl")
            _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
            process.executableURL = BinaryTests.binary
            process.arguments = ["history", "export", "--follow", "--db", workspace.databaseURL.path] + arguments
            process.environment = ["HOME": workspace.url.path, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
            process.standardOutput = try FileHandle(forWritingTo: outputURL)
            _ = FileManager.default.createFile(atPath: outputURL.path + ".err", contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: outputURL.path + ".err"))
            let log = workspace.url.appendingPathComponent("data/tabshell.log")
            logURL = log
            let startsBefore = (try? String(contentsOf: log, encoding: .utf8))?.components(separatedBy: "--follow started").count ?? 1
            try process.run()
            // Ready once it has said where it starts (it reads the last id, then follows).
            try Self.poll("the consumer to start") {
                ((try? String(contentsOf: log, encoding: .utf8))?.components(separatedBy: "--follow started").count ?? 1) > startsBefore
            }
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        /// The records printed so far, each line parsed.
        func records() throws -> [[String: Any]] {
            let text = try String(contentsOf: outputURL, encoding: .utf8)
            return try text.split(separator: "\n").map { line in
                try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }

        func ids() throws -> [Int64] { try records().compactMap { ($0["id"] as? NSNumber)?.int64Value } }

        /// Waits until `count` records are printed (or fails after 10 s).
        func waitFor(_ count: Int) throws {
            do {
                try Self.poll("\(count) records") { ((try? ids()) ?? []).count >= count }
            } catch {
                let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
                let errors = (try? String(contentsOfFile: outputURL.path + ".err", encoding: .utf8)) ?? ""
                throw HarnessError(
                    "\(error); running: \(process.isRunning); printed: \(text.prefix(2000)); errors: \(errors); log: \((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")")
            }
        }

        /// Sends `signal` and returns the exit status.
        func stop(_ signal: Int32 = SIGINT) -> Int32 {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return process.terminationStatus
        }

        static func poll(_ what: String, _ condition: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(10)
            while !condition() {
                guard Date() < deadline else { throw HarnessError("timed out waiting for \(what)") }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    struct HarnessError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Two sessions (two connections to the file) committing in turn, `count` each; the ids in
    /// the order they committed.
    static func commitInTurns(_ one: AppDatabase, _ two: AppDatabase, count: Int, request: Int64?) throws -> [Int64] {
        var ids: [Int64] = []
        for index in 0..<count {
            for (session, db) in [("one", one), ("two", two)] {
                let submission = CaptureSubmission(kind: .note, note: "\(session) \(index)", requestID: index == 0 ? request : nil)
                ids.append(try db.commitCapture(submission, now: testNow, capturedBy: session))
            }
        }
        return ids
    }

    @Test func aConsumerStartedBeforeTwoSessionsCommitGetsExactlyTheirRecordsInOrder() throws {
        let workspace = try Workspace()
        let seeded = try workspace.seeded()
        let request = try seeded.addRequest(title: "Scan the crate", kind: .note, now: testNow, requester: "chef")
        let consumer = try Consumer(workspace)
        let one = try AppDatabase.open(at: workspace.databaseURL)
        let two = try AppDatabase.open(at: workspace.databaseURL)

        let committed = try Self.commitInTurns(one, two, count: 10, request: request)
        try consumer.waitFor(committed.count)

        #expect(try consumer.ids() == committed, "exactly the records committed after it started, in commit order")
        let first = try #require(try consumer.records().first)
        let answered = try #require(first["request"] as? [String: Any])
        #expect(answered["title"] as? String == "Scan the crate")
        #expect(answered["from"] as? String == "chef", "the requester the answer goes back to")
        #expect(first["capturedBy"] as? String == "one")
        #expect(consumer.stop(SIGINT) == 0)
    }

    /// Also the test that found opens in one process dropping each other's SQLite locks: the
    /// first consumer, exiting, took itself for the last connection and deleted the WAL that held
    /// the commits made next (see `AppDatabase.openHere`).
    @Test func restartedWithSinceItMissesNothingAndRepeatsNothing() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let one = try AppDatabase.open(at: workspace.databaseURL)
        let two = try AppDatabase.open(at: workspace.databaseURL)

        let first = try Consumer(workspace)
        var committed = try Self.commitInTurns(one, two, count: 5, request: nil)
        try first.waitFor(committed.count)
        let seen = try first.ids()
        #expect(first.stop(SIGTERM) == 0)

        // Commits while nobody follows, then a restart from the last id seen, then more commits.
        committed += try Self.commitInTurns(one, two, count: 3, request: nil)
        let second = try Consumer(workspace, arguments: ["--since", String(try #require(seen.last))])
        committed += try Self.commitInTurns(one, two, count: 3, request: nil)
        try second.waitFor(12)

        let all = seen + (try second.ids())
        #expect(all == committed, "no gap and no duplicate across the restart")
        #expect(Set(all).count == all.count)
        #expect(second.stop(SIGINT) == 0)
    }

    @Test func followRefusesOtherFormatsAndOutputFiles() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let run = try BinaryTests().shell(#""$TABSHELL" history export --follow --format csv --db "$DB""#, in: workspace)
        #expect(run.status == 64)
        #expect(run.err.contains("--follow writes JSON lines"))
        let file = try BinaryTests().shell(#""$TABSHELL" history export --follow --output x.jsonl --db "$DB""#, in: workspace)
        #expect(file.status == 64)
    }
}
