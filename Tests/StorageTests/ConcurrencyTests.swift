import CaptureMode
import Domain
import Foundation
import GRDB
import SQLiteStorage
import Storage
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Several people on one database: sessions are separate processes (`TestWorkers session`),
/// started together on a database that does not exist yet, each committing captures as fast as
/// it can.
///
/// `TABSHELL_SESSIONS` (8) and `TABSHELL_COMMITS_PER_SESSION` (500) set the load. PostgreSQL's
/// counterpart is `MultiHostTests` (two hosts of eight sessions each, into one server).
@Suite("Concurrency", .serialized, .tags(.stress))
struct ConcurrencyTests {
    @Test(.timeLimit(.minutes(5)))
    func eightSessionsCommitTogetherWithoutAnError() throws {
        let environment = ProcessInfo.processInfo.environment
        let sessions = environment["TABSHELL_SESSIONS"].flatMap(Int.init) ?? 8
        let commits = environment["TABSHELL_COMMITS_PER_SESSION"].flatMap(Int.init) ?? 500

        // Given N sessions waiting to start on a database that does not exist yet
        let temp = try TemporaryDirectory()
        let start = temp.url.appendingPathComponent("start").path
        let journal = temp.url.appendingPathComponent("journal").path
        let log = temp.url.appendingPathComponent("workers.log").path
        var workers: [ChildProcess] = []
        for index in 0..<sessions {
            workers.append(
                try TestWorker.session.spawn(
                    environment: [
                        TestWorker.Variable.sessionDatabase: temp.databaseURL.path, TestWorker.Variable.sessionJournal: journal,
                        TestWorker.Variable.sessionStart: start, TestWorker.Variable.sessionCommits: "\(commits)",
                        TestWorker.Variable.sessionName: "s\(index)",
                    ],
                    outputPath: log))
        }

        // When they all start at once and commit as fast as they can
        let began = ContinuousClock.now
        _ = FileManager.default.createFile(atPath: start, contents: Data())
        var endings: [ChildProcess.Ending] = []
        for worker in workers {
            while worker.poll() == nil { usleep(5_000) }
            endings.append(worker.poll() ?? .exited(-1))
        }
        let elapsed = began.duration(to: .now)

        // Then no session saw an error, every acknowledged commit is there exactly once,
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let errors = output.split(separator: "\n").filter { $0.hasPrefix("session worker") && $0.contains(": ") && !$0.contains(" commits in ") }
        #expect(errors.isEmpty, "errors shown to sessions: \(errors.prefix(5))")
        #expect(endings.allSatisfy { $0 == .exited(0) }, "\(endings)")
        let acknowledged = ((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst().first.flatMap { Int64($0) } }
        #expect(acknowledged.count == sessions * commits)
        #expect(Set(acknowledged).count == acknowledged.count, "an id was handed out twice")
        let queue = try rawQueue(temp.databaseURL)
        let (rows, ids, integrity, migrations) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture") ?? -1,
                Set(try Int64.fetchAll(db, sql: "SELECT id FROM capture")),
                try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            )
        }
        #expect(rows == sessions * commits)
        #expect(ids == Set(acknowledged))
        #expect(integrity == ["ok"])
        // and each migration was applied once, by whichever session got the open lock first.
        let reference = try TemporaryDirectory()
        _ = try AppDatabase.open(at: reference.databaseURL)
        let expected = try rawQueue(reference.databaseURL).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
        #expect(migrations == expected)

        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let slowest = output.split(separator: "\n").compactMap { $0.split(separator: "slowest ms ").last.flatMap { Int($0) } }.max() ?? -1
        print(
            "concurrency: \(sessions) sessions × \(commits) commits = \(rows) rows in \(String(format: "%.1f", seconds)) s (\(Int(Double(rows) / max(seconds, 0.001))) commits/s), \(errors.count) errors, integrity \(integrity.joined()), migrations \(migrations.joined(separator: ",")), slowest single commit \(slowest) ms"
        )
    }

    /// The counter of `store`, once it differs from `old` (PostgreSQL's moves when the server's
    /// notification arrives), or the last value read after 10 s.
    private func counter(of store: any RecordStore, movedFrom old: Int64) throws -> Int64 {
        let deadline = ContinuousClock.now + .seconds(10)
        var value = try store.externalChangeCounter()
        while value == old, ContinuousClock.now < deadline {
            usleep(10_000)
            value = try store.externalChangeCounter()
        }
        return value
    }

    /// The counter of `mine` after `theirs` adds a request (one announced change), expecting
    /// nothing else since `old` to have been counted: on SQLite the counter has not moved before
    /// the request; on PostgreSQL it moves by exactly the request's one announcement.
    private func counterAfterTheirMarker(
        _ mine: any RecordStore, _ theirs: any RecordStore, _ engine: StoreEngine, from old: Int64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int64 {
        if engine == .sqlite {
            #expect(try mine.externalChangeCounter() == old, "our own writes moved the counter", sourceLocation: sourceLocation)
        }
        _ = try theirs.add(title: "Marker", kind: .note, now: Clock.now)
        let moved = try counter(of: mine, movedFrom: old)
        if engine == .postgres {
            #expect(moved == old + 1, "more than the other session's one change was counted", sourceLocation: sourceLocation)
        }
        return moved
    }

    @Test(arguments: StoreEngine.allCases) func anotherConnectionsCommitMovesTheChangeCounterAndOursDoesNot(engine: StoreEngine) throws {
        // Given two sessions on one store
        let temp = try TemporaryDirectory()
        let mine = try temp.store(engine, listen: true)
        let theirs = try temp.store(engine)
        let first = try mine.externalChangeCounter()

        // When this session commits, the counter stays; another session's request, announced
        // after ours, is then the one change counted. (SQLite's counter is read at once;
        // PostgreSQL delivers announcements in commit order, so once the other's has moved the
        // counter ours have arrived too: no waiting for something not to happen.)
        _ = try mine.add(title: "Mine", kind: .barcode, now: Clock.now)
        _ = try mine.commit(CaptureSubmission(kind: .note, note: "mine"), now: Clock.now)
        let second = try counterAfterTheirMarker(mine, theirs, engine, from: first)
        #expect(second != first)

        // and a read elsewhere does not move it
        _ = try theirs.inbox()
        let third = try counterAfterTheirMarker(mine, theirs, engine, from: second)

        // and neither does this session's Done, while another's does
        _ = try mine.commit(CaptureSubmission(kind: .note, note: "mine again"), now: Clock.now)
        let fourth = try counterAfterTheirMarker(mine, theirs, engine, from: third)
        #expect(fourth != third)
        _ = try theirs.commit(CaptureSubmission(kind: .note, note: "theirs"), now: Clock.now)
        #expect(try counter(of: mine, movedFrom: fourth) != fourth)
    }
}
