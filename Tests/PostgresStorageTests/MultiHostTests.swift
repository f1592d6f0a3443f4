import CaptureMode
import Foundation
import PostgresNIO
import Storage
import Synchronization
import TabShell
import Testing

@testable import PostgresStorage

#if canImport(Glibc)
import Glibc
#endif

/// Several hosts on one PostgreSQL store: each commit heard by the others (and not by its own
/// host), and two processes with folders of their own committing at once from 8 sessions each.
@Suite("Several hosts, one store")
struct MultiHostTests {
    static let workerURL = "TABSHELL_PG_HOST_WORKER_URL"
    static let workerFolder = "TABSHELL_PG_HOST_WORKER_FOLDER"
    static let workerStart = "TABSHELL_PG_HOST_WORKER_START"
    static let workerName = "TABSHELL_PG_HOST_WORKER_NAME"
    /// Commits by each session (8 per host); `make stress`-style runs raise it.
    static var commitsPerSession: Int {
        Int(ProcessInfo.processInfo.environment["TABSHELL_PG_COMMITS_PER_SESSION"] ?? "") ?? 500
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
        usleep(300_000)
        #expect(try here.externalChangeCounter() == before, "our own commits are not news")

        try there.commitCapture(CaptureSubmission(kind: .note, note: "theirs"), staging: nil, now: Date(), capturedBy: nil)
        let deadline = ContinuousClock.now + .seconds(5)
        while try here.externalChangeCounter() == before, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(try here.externalChangeCounter() != before, "the other host's commit was not heard within 5 s")
    }

    /// One "host": a process of its own with its own folder (staging, cache), 8 sessions
    /// committing at once — every tenth commit with a photo, every fifth answering a request.
    @Test func hostWorker() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment[Self.workerURL], let folder = environment[Self.workerFolder], let start = environment[Self.workerStart],
            let name = environment[Self.workerName]
        else { return }
        let store = try PostgresStore.open(
            PostgresLocation(url: url, environment: [:]), folder: URL(fileURLWithPath: folder), listen: true, maximumConnections: 8)
        defer { store.close() }
        let photo = folder + "/photo.png"
        FileManager.default.createFile(atPath: photo, contents: Data(DemoPNG.encode(width: 8, height: 8) { x, y in (UInt8(x), UInt8(y), 7) }))
        while access(start, F_OK) != 0 { usleep(200) }
        let failures = Mutex<[String]>([])
        let commits = Self.commitsPerSession
        DispatchQueue.concurrentPerform(iterations: 8) { session in
            for index in 0..<commits {
                do throws(StorageError) {
                    var requestID: Int64?
                    if index % 5 == 0 {
                        requestID = try store.addRequest(
                            title: "\(name) \(session) \(index)", body: "", kind: .note, now: Date(), createdBy: name, requester: nil)
                    }
                    if index % 10 == 0 {
                        let staging = try store.beginStaging()
                        let staged = try staging.stage(fileAt: photo, originalName: "photo.png", maxBytes: 1 << 20)
                        try store.commitCapture(
                            CaptureSubmission(kind: .photos, requestID: requestID, photos: [staged]), staging: staging, now: Date(),
                            capturedBy: name)
                    } else {
                        try store.commitCapture(
                            CaptureSubmission(kind: .note, note: "\(name) \(session) \(index)", requestID: requestID), staging: nil,
                            now: Date(), capturedBy: name)
                    }
                } catch {
                    failures.withLock { $0.append(error.message) }
                }
            }
        }
        let found = failures.withLock { $0 }
        print("host worker \(name): \(8 * commits - found.count) commits, \(found.count) failures \(found.prefix(3))")
        #expect(found.isEmpty)
    }

    @Test func twoHostsOfEightSessionsCommitEveryRowWithoutAnError() throws {
        let scratch = try ScratchDatabase()
        let files = try TestFolder()
        // The schema is made once before the hosts start (they would queue on its lock anyway).
        try PostgresStore.open(scratch.location, folder: files.url, listen: false).close()
        guard let executable = ChildProcess.currentExecutable() else { throw TestFailure("no test executable") }
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
                try ChildProcess.spawn(
                    executable, arguments: ["--testing-library", "swift-testing", "--filter", "hostWorker"],
                    environment: [
                        Self.workerURL: String(url), Self.workerFolder: folder.path, Self.workerStart: start, Self.workerName: name,
                        "TABSHELL_PG_COMMITS_PER_SESSION": String(Self.commitsPerSession),
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
