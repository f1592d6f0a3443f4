import CaptureMode
import Domain
import Foundation
import PostgresNIO
import Storage
import TabShell
import TestSupport
import Testing

@testable import PostgresStorage

#if canImport(Glibc)
import Glibc
#endif

/// Several hosts on one PostgreSQL store: each commit heard by the others (and not by its own
/// host), and two processes (`TestWorkers host`) with folders of their own committing at once
/// from 8 sessions each.
@Suite("Several hosts, one store", .tags(.postgres, .stress))
struct MultiHostTests {
    /// Commits by each session (8 per host): 200 in `make test` (3,200 rows, the 16 sessions
    /// all starting at once), 2,000 in `make stress`.
    static var commitsPerSession: Int {
        Int(ProcessInfo.processInfo.environment[TestWorker.Variable.hostCommitsPerSession] ?? "") ?? 200
    }

    @Test func anotherHostsCommitMovesTheCounterAndOurOwnDoesNot() throws {
        let scratch = try ScratchDatabase()
        let files = try TestFolder()
        let here = try PostgresStore.open(scratch.location, folder: files.url.appendingPathComponent("a"), listen: true)
        let there = try PostgresStore.open(scratch.location, folder: files.url.appendingPathComponent("b"), listen: true)
        defer {
            here.close()
            there.close()
        }
        let before = try here.externalChangeCounter()
        _ = try here.addRequest(title: "ours", body: "", kind: .note, now: Date(), createdBy: nil, requester: nil)
        try here.commitCapture(CaptureSubmission(kind: .note, note: "ours"), staging: nil, now: Date(), capturedBy: nil)

        // The other host's request (one announcement) comes after ours in commit order, which is
        // the order the server delivers them in: once it is counted, ours have arrived too.
        _ = try there.addRequest(title: "theirs", body: "", kind: .note, now: Date(), createdBy: nil, requester: nil)
        var deadline = ContinuousClock.now + .seconds(5)
        while try here.externalChangeCounter() == before, ContinuousClock.now < deadline { usleep(10_000) }
        let heard = try here.externalChangeCounter()
        #expect(heard != before, "the other host's request was not heard within 5 s")
        #expect(heard == before + 1, "our own commits are not news")

        try there.commitCapture(CaptureSubmission(kind: .note, note: "theirs"), staging: nil, now: Date(), capturedBy: nil)
        deadline = ContinuousClock.now + .seconds(5)
        while try here.externalChangeCounter() == heard, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(try here.externalChangeCounter() != heard, "the other host's commit was not heard within 5 s")
    }

    @Test func twoHostsOfEightSessionsCommitEveryRowWithoutAnError() throws {
        let scratch = try ScratchDatabase()
        let files = try TestFolder()
        // The schema is made once before the hosts start (they would queue on its lock anyway).
        try PostgresStore.open(scratch.location, folder: files.url, listen: false).close()
        let server = try TestServer.url()
        guard let slash = server.lastIndex(of: "/") else { throw TestFailure("odd URL") }
        let url = server[..<slash] + "/" + scratch.name
        let start = files.url.appendingPathComponent("start").path
        let began = ContinuousClock.now
        var hosts: [ChildProcess] = []
        for name in ["north", "south"] {
            let folder = files.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            hosts.append(
                try TestWorker.host.spawn(
                    environment: [
                        TestWorker.Variable.hostURL: String(url), TestWorker.Variable.hostFolder: folder.path,
                        TestWorker.Variable.hostStart: start, TestWorker.Variable.hostName: name,
                        TestWorker.Variable.hostCommitsPerSession: String(Self.commitsPerSession),
                    ],
                    outputPath: files.url.appendingPathComponent("\(name).log").path))
        }
        _ = FileManager.default.createFile(atPath: start, contents: Data())
        var endings: [ChildProcess.Ending] = []
        for host in hosts {
            while host.poll() == nil { usleep(10_000) }
            endings.append(host.poll() ?? .exited(-1))
        }
        let seconds = Double((ContinuousClock.now - began).components.seconds)
        let logs = ["north", "south"].compactMap { try? String(contentsOf: files.url.appendingPathComponent("\($0).log"), encoding: .utf8) }
        #expect(endings == [.exited(0), .exited(0)], "\(logs.joined(separator: "\n").suffix(2000))")

        let commits = Self.commitsPerSession
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try pool.withConnection { session throws(StorageError) in
            let expected = 2 * 8 * commits
            #expect(try session.value("SELECT count(*) FROM capture", as: Int.self) == expected)
            #expect(try session.value("SELECT count FROM capture_count WHERE id = 1", as: Int.self) == expected)
            let photoCommits = 2 * 8 * ((commits + 9) / 10)
            #expect(try session.value("SELECT count(*) FROM capture_photo", as: Int.self) == photoCommits)
            #expect(try session.value("SELECT count(DISTINCT staging_id) FROM capture", as: Int.self) == photoCommits)
            // One photo, committed thousands of times: kept once.
            #expect(try session.value("SELECT count(*) FROM photo_content", as: Int.self) == 1)
            let answered = 2 * 8 * ((commits + 4) / 5)
            #expect(try session.value("SELECT count(*) FROM request WHERE status = 'done'", as: Int.self) == answered)
            #expect(try session.value("SELECT count(*) FROM capture WHERE request_id IS NOT NULL", as: Int.self) == answered)
            for name in ["north", "south"] {
                #expect(try session.value("SELECT count(*) FROM capture WHERE captured_by = \(name)", as: Int.self) == 8 * commits)
            }
        }
        print("two hosts x 8 sessions x \(commits) commits: \(2 * 8 * commits) rows in \(seconds) s")
    }
}
