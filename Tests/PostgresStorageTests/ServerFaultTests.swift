import CaptureMode
import Domain
import Foundation
import PostgresNIO
import Storage
import Synchronization
import TabShell
import TestSupport
import Testing

@testable import PostgresStorage

#if canImport(Glibc)
import Glibc
#endif

/// A throw-away server of this suite's own (scripts/pg-test-server with a state file of its
/// own), so killing it does not disturb the other suites' server.
final class PrivateServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pg-test-server").path
    let folder: TestFolder
    let url: String

    init() throws {
        folder = try TestFolder()
        // The postgres account must be able to reach the state file's folder's server folder: the
        // script makes the cluster under TMPDIR (/tmp by default), not here.
        let output = try Self.run("start", folder: folder)
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("postgres://") }) else {
            throw TestFailure("the private server did not start: \(output)")
        }
        url = String(line)
    }

    /// Runs the script with this server's state file; its output.
    @discardableResult
    static func run(_ command: String, folder: TestFolder) throws -> String {
        let log = folder.url.appendingPathComponent("script-\(command)-\(UUID().uuidString).log").path
        var environment = ProcessInfo.processInfo.environment
        environment["TABSHELL_PG_STATE"] = folder.url.appendingPathComponent("pg.state").path
        let child = try ChildProcess.spawn("/bin/bash", arguments: [script, command], environment: environment, outputPath: log)
        while child.poll() == nil { usleep(5_000) }
        let output = (try? String(contentsOf: URL(fileURLWithPath: log), encoding: .utf8)) ?? ""
        guard child.poll() == .exited(0) else { throw TestFailure("pg-test-server \(command) failed: \(output)") }
        return output
    }

    func kill() throws { try Self.run("kill", folder: folder) }
    func revive() throws { try Self.run("revive", folder: folder) }
    /// Stops every process of the server (SIGSTOP): connections stay open, nothing answers.
    func freeze() throws { try Self.run("freeze", folder: folder) }
    func thaw() throws { try Self.run("thaw", folder: folder) }

    deinit {
        _ = try? Self.run("stop", folder: folder)
    }
}

/// The server killed (SIGKILL, as when its host dies) at random points while Done runs, again
/// and again: afterwards no record lacks its photos, no request is answered by a record that is
/// not there, and each Done that failed is either committed after all (its staging folder then
/// cleared) or offered back as a draft with its photos — never both, never neither.
@Suite("The server killed mid-Done", .tags(.postgres, .stress))
struct ServerFaultTests {
    static var runs: Int { Int(ProcessInfo.processInfo.environment["TABSHELL_PG_FAULT_RUNS"] ?? "") ?? 100 }

    @Test func killedServerLosesNothingAndDoublesNothing() throws {
        let server = try PrivateServer()
        let files = try TestFolder()
        let location = try PostgresLocation(url: server.url, environment: [:])
        let store = try PostgresStore.open(location, folder: files.url, listen: false, answerTimeout: .seconds(10))
        defer { store.close() }
        let front = try files.png("front.png", seed: 3, size: 96)
        let back = try files.png("back.png", seed: 4, size: 96)
        var committedAfterAll = 0, offeredBack = 0, failedBeforeDone = 0, commits = 0
        var generator = SystemRandomNumberGenerator()

        for run in 0..<Self.runs {
            // One session commits until the server goes; what it was doing then is kept here.
            let outcome = Mutex<(commits: Int, failedStaging: String?, failedBeforeDone: Bool, message: String?)>((0, nil, false, nil))
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                defer { finished.signal() }
                while true {
                    var staging: StagingSession?
                    do throws(StorageError) {
                        let request = try store.addRequest(
                            title: "run \(run)", body: "", kind: .photos, now: Date(), createdBy: nil, requester: nil)
                        let session = try store.beginStaging()
                        staging = session
                        let photos = [
                            try session.stage(fileAt: front, originalName: "front.png", maxBytes: 1 << 20),
                            try session.stage(fileAt: back, originalName: "back.png", maxBytes: 1 << 20),
                        ]
                        try session.saveDraft(
                            CaptureDraft(kind: .photos, phase: "review", requestID: request, photos: photos, updatedAt: Date()))
                        try store.commitCapture(
                            CaptureSubmission(kind: .photos, requestID: request, photos: photos), staging: session, now: Date(),
                            capturedBy: nil)
                        outcome.withLock { $0.commits += 1 }
                    } catch {
                        let id = staging.map(\.stagingID)
                        staging?.close()
                        outcome.withLock {
                            $0.failedStaging = id
                            $0.failedBeforeDone = id == nil
                            $0.message = error.message
                        }
                        return
                    }
                }
            }
            usleep(UInt32.random(in: 5_000...60_000, using: &generator))
            try server.kill()
            finished.wait()
            try server.revive()
            let result = outcome.withLock { $0 }
            commits += result.commits
            #expect(result.message?.contains("PostgreSQL") == true, "run \(run): \(result.message ?? "no failure")")

            let report = try store.recover(now: Date())
            if let id = result.failedStaging {
                let committed = try store.isStagingCommitted(id)
                let offered = report.drafts.filter { $0.id == id }
                if committed {
                    committedAfterAll += 1
                    #expect(offered.isEmpty, "run \(run): committed and offered back")
                } else {
                    offeredBack += 1
                    #expect(offered.count == 1, "run \(run): a failed Done was neither committed nor offered back")
                    #expect(offered.first?.draft.photos.count == 2, "run \(run): the draft lost photos")
                }
            } else {
                failedBeforeDone += 1
            }
            for draft in report.drafts { try store.discardDraft(draft) }
        }

        try store.pool.withConnection { session throws(StorageError) in
            let withoutPhotos = try session.value(
                "SELECT count(*) FROM capture WHERE (SELECT count(*) FROM capture_photo WHERE capture_id = capture.id) <> 2", as: Int.self)
            #expect(withoutPhotos == 0, "records without both their photos")
            let answeredByNothing = try session.value(
                "SELECT count(*) FROM request WHERE status = 'done' AND NOT EXISTS (SELECT 1 FROM capture WHERE request_id = request.id)",
                as: Int.self)
            #expect(answeredByNothing == 0, "requests answered by a missing record")
            let doubled = try session.value("SELECT count(*) - count(DISTINCT request_id) FROM capture", as: Int.self)
            #expect(doubled == 0, "a request answered twice")
            let records = try session.value("SELECT count(*) FROM capture", as: Int.self) ?? -1
            #expect(records == commits + committedAfterAll)
            #expect(try session.value("SELECT count FROM capture_count WHERE id = 1", as: Int.self) == records)
        }
        print(
            "server killed \(Self.runs) times mid-Done: \(commits) commits answered, \(committedAfterAll) failed Done found committed after all, "
                + "\(offeredBack) offered back as drafts, \(failedBeforeDone) failed before Done")
    }
}
