import CaptureMode
import Domain
import Foundation
import PostgresNIO
import Storage
import TabShell
import TestSupport
import Testing

@testable import PostgresStorage

/// A server that stops answering without closing anything — its processes stopped (SIGSTOP),
/// as when a network drops packets — is the case a killed server is not: nothing tells the
/// client, only the answer timeout. The app's store (listening) waits for one answer, then
/// fails every call at once until the server is back, so the screen is held once, not on every
/// key; nothing is written twice.
///
/// The time limits guard against a hang, not a speed: each test starts a PostgreSQL server of its
/// own (initdb, then the server), and beside the main pass's other suites on 2 cores one body
/// once took more than 3 minutes before it ran to a pass; 10 minutes still ends a real hang well
/// inside CI's budget.
@Suite("A server that stops answering", .tags(.postgres))
struct SilentServerTests {
    @Test(.timeLimit(.minutes(10))) func oneCallWaitsForTheAnswerTimeoutThenEveryCallFailsAtOnceUntilTheServerIsBack() throws {
        // Given the app's store (listening) on a server of its own, with a record
        let server = try PrivateServer()
        let files = try TestFolder()
        let location = try PostgresLocation(url: server.url, environment: [:])
        let timeout = 3
        let store = try PostgresStore.open(location, folder: files.url, listen: true, answerTimeout: .seconds(Int64(timeout)))
        defer { store.close() }
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        _ = try store.commitCapture(CaptureSubmission(kind: .note, note: "before"), staging: nil, now: now, capturedBy: nil)
        #expect(try store.historyPage(HistoryPageRequest(start: 0, count: 10)).totalCount == 1)

        // When the server stops answering
        try server.freeze()
        var thawed = false
        defer { if !thawed { try? server.thaw() } }

        // Then the first call waits for its answer, and says so in one sentence
        let first = #expect(throws: StorageError.self) { try store.historyPage(HistoryPageRequest(start: 0, count: 10)) }
        let sentence = first?.message ?? ""
        #expect(sentence == "Cannot reach PostgreSQL at \(location.server): no answer within \(timeout) s.", "\(sentence)")

        // And every call after it fails at once with that sentence, without waiting for the
        // server again (each would wait the answer timeout, or connect_timeout for a connection)
        let started = ContinuousClock.now
        #expect(throws: StorageError.unreachable(sentence)) {
            try store.commitCapture(CaptureSubmission(kind: .note, note: "while silent"), staging: nil, now: now, capturedBy: nil)
        }
        #expect(throws: StorageError.unreachable(sentence)) { try store.inbox() }
        #expect(throws: StorageError.unreachable(sentence)) { try store.search("before", limit: 5) }
        #expect(throws: StorageError.unreachable(sentence)) { try store.externalChangeCounter() }
        let waited = started.duration(to: .now)
        #expect(waited < .seconds(timeout), "the calls after the first waited \(waited)")

        // When the server answers again
        try server.thaw()
        thawed = true

        // Then the store finds it (its listener tries every second) and every call works
        let deadline = ContinuousClock.now + .seconds(60)
        var back = false
        while !back, ContinuousClock.now < deadline {
            back = (try? store.externalChangeCounter()) != nil
            if !back { usleep(50_000) }
        }
        #expect(back, "the store never found the server again")
        let id = try store.commitCapture(CaptureSubmission(kind: .note, note: "after"), staging: nil, now: now, capturedBy: nil)
        // Nothing of the refused Done was written, nothing twice
        let notes = try store.historyPage(HistoryPageRequest(start: 0, count: 10)).rows.map(\.note)
        #expect(notes.sorted { ($0 ?? "") < ($1 ?? "") } == ["after", "before"])
        #expect(try store.recordDetail(id: id)?.record.note == "after")
    }

    @Test(.timeLimit(.minutes(10))) func aConnectionToASilentServerIsGivenUpAfterConnectTimeout() throws {
        // Given a server that accepts connections (the kernel does) but never answers them
        let server = try PrivateServer()
        var location = try PostgresLocation(url: server.url, environment: [:])
        location.connectTimeoutSeconds = 2
        try server.freeze()
        defer { try? server.thaw() }

        // When a command connects (no listener, no pool connection yet)
        let pool = try PostgresPool(location: location, maximumConnections: 1)
        defer { pool.close() }
        let error = #expect(throws: StorageError.self) {
            try pool.withConnection { session throws(StorageError) in try session.execute("SELECT 1") }
        }

        // Then it gives up after connect_timeout with one sentence, instead of waiting for ever
        #expect(
            error?.message == "Cannot reach PostgreSQL at \(location.server): no answer within 2 s (connect_timeout).",
            "\(error?.message ?? "")")
    }
}
