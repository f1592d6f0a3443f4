import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import Synchronization
import TabShell
import TestSupport
import Testing

@testable import PostgresStorage

/// Commits per second from 8 sessions on each engine: printed, never asserted (the numbers
/// depend on the machine). Runs only with TABSHELL_BENCH_COMMITS set (commits per session);
/// scripts/bench-postgres sets it.
@Suite("Commit rate (benchmark)", .tags(.postgres, .stress))
struct CommitRateBenchmarkTests {
    static let commits = Int(ProcessInfo.processInfo.environment["TABSHELL_BENCH_COMMITS"] ?? "")

    /// 8 sessions committing `commits` notes each (every tenth with a photo); commits per second.
    static func rate(_ store: any RecordStore, commits: Int, photo: String) throws -> Double {
        let failures = Atomic<Int>(0)
        let started = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: 8) { session in
            for index in 0..<commits {
                do throws(StorageError) {
                    if index % 10 == 0 {
                        let staging = try store.beginStaging()
                        let staged = try staging.stage(fileAt: photo, originalName: "p.png", maxBytes: 1 << 20)
                        try store.commitCapture(CaptureSubmission(kind: .photos, photos: [staged]), staging: staging, now: Date(), capturedBy: "s\(session)")
                    } else {
                        try store.commitCapture(CaptureSubmission(kind: .note, note: "note \(session) \(index)"), staging: nil, now: Date(), capturedBy: "s\(session)")
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        #expect(failures.load(ordering: .relaxed) == 0)
        return Double(8 * commits) / seconds
    }

    @Test(.enabled(if: commits != nil)) func commitsPerSecondFromEightSessions() throws {
        let commits = Self.commits ?? 0
        let files = try TestFolder()
        let photo = try files.png("p.png", seed: 1, size: 64)
        let sqlite = try AppDatabase.open(at: files.url.appendingPathComponent("bench.sqlite"))
        let sqliteRate = try Self.rate(sqlite, commits: commits, photo: photo)
        let scratch = try ScratchDatabase()
        let postgres = try PostgresStore.open(scratch.location, folder: files.url.appendingPathComponent("pg"), listen: true, maximumConnections: 8)
        defer { postgres.close() }
        let postgresRate = try Self.rate(postgres, commits: commits, photo: photo)
        print(String(format: "commits per second, 8 sessions x %d (every tenth with a photo): SQLite %.0f, PostgreSQL %.0f", commits, sqliteRate, postgresRate))
    }
}
