import Domain
import Foundation
import PostgresNIO
import Storage
import TestSupport
import Testing

@testable import PostgresStorage

#if canImport(Glibc)
import Glibc
#endif

/// What a listener heard, from its event loop thread, with a way to wait for it.
final class Heard: @unchecked Sendable {
    private let condition = NSCondition()
    private var changes: [PostgresChangeListener.Change] = []
    private var losses: [String] = []

    func change(_ change: PostgresChangeListener.Change) {
        condition.lock()
        changes.append(change)
        condition.broadcast()
        condition.unlock()
    }

    func lost(_ error: StorageError) {
        condition.lock()
        losses.append(error.message)
        condition.broadcast()
        condition.unlock()
    }

    var tables: [String] {
        condition.lock()
        defer { condition.unlock() }
        return changes.map(\.table)
    }

    var all: [PostgresChangeListener.Change] {
        condition.lock()
        defer { condition.unlock() }
        return changes
    }

    var lostSentences: [String] {
        condition.lock()
        defer { condition.unlock() }
        return losses
    }

    /// Waits up to 10 s (a bound for a stuck run, not a speed check) for `done` to hold.
    func wait(until done: ([String], [String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        condition.lock()
        defer { condition.unlock() }
        while !done(changes.map(\.table), losses) {
            if !condition.wait(until: deadline) { return done(changes.map(\.table), losses) }
        }
        return true
    }

    func listener(_ location: PostgresLocation) throws -> PostgresChangeListener {
        try PostgresChangeListener(location: location, onChange: { self.change($0) }, onLost: { self.lost($0) })
    }
}

private let settingsRow = """
    INSERT INTO settings (id, snap_back_target, capture_gating, tab_bar_position, color_enabled, auto_advance_milliseconds, allow_free_text_codes)
    VALUES (1, 'history', true, 'top', true, 0, false)
    ON CONFLICT (id) DO UPDATE SET auto_advance_milliseconds = settings.auto_advance_milliseconds + 1
    """

@Suite("PostgreSQL changes heard through LISTEN/NOTIFY", .serialized, .tags(.postgres))
struct ChangeListenerTests {
    @Test func eachCommittedTableIsHeardOncePerTransaction() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let heard = Heard()
        let listener = try heard.listener(scratch.location)
        defer { listener.stop() }

        try pool.transaction { session throws(StorageError) in
            try session.execute("INSERT INTO request (id, title, kind, created_at) VALUES (1, 'Count', 'barcode', now())")
            for id in 1...3 {
                try session.execute(.bound("INSERT INTO capture (kind, note, request_id, created_at) VALUES ('note', $1, 1, now())", "n\(id)"))
            }
        }
        try pool.execute(settingsRow)

        #expect(heard.wait { tables, _ in tables.contains("settings") })
        #expect(heard.tables == ["request", "capture", "settings"])
    }

    @Test func aRolledBackTransactionIsNotHeard() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let heard = Heard()
        let listener = try heard.listener(scratch.location)
        defer { listener.stop() }

        _ = try? pool.transaction { session throws(StorageError) in
            try session.execute("INSERT INTO capture (kind, note, created_at) VALUES ('note', 'gone', now())")
            throw StorageError.invalidInput("Rolled back.")
        }
        try pool.execute(settingsRow)

        #expect(heard.wait { tables, _ in tables.contains("settings") })
        #expect(heard.tables == ["settings"])
    }

    @Test func aChangeNamesTheSessionThatCommittedIt() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let heard = Heard()
        let listener = try heard.listener(scratch.location)
        defer { listener.stop() }

        let pid = try pool.withConnection { session throws(StorageError) in
            try session.execute(PostgresQuery(unsafeSQL: settingsRow))
            return try session.value("SELECT pg_backend_pid()", as: Int32.self)
        }

        #expect(heard.wait { tables, _ in !tables.isEmpty })
        #expect(heard.all == [PostgresChangeListener.Change(table: "settings", backendPID: pid ?? -1)])
    }

    @Test func aLostConnectionIsOneSentenceAndAStoppedListenerHearsNothing() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 1)
        defer { pool.close() }
        try PostgresMigrator().migrate(pool)
        let lost = Heard()
        let lostListener = try lost.listener(scratch.location)
        defer { lostListener.stop() }
        let stopped = Heard()
        let stoppedListener = try stopped.listener(scratch.location)
        let witness = Heard()
        let witnessListener = try witness.listener(scratch.location)
        defer { witnessListener.stop() }

        // The server ends the first listener's session, as when it restarts. The stopped
        // listener's server process ends a moment after its connection closes: wait for it, so
        // only the lost and the witness listeners are left besides this pool's session.
        stoppedListener.stop()
        let settled = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < settled,
            try pool.int(
                """
                SELECT count(*)::int FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                """) != 2
        {
            usleep(20_000)
        }
        let terminated = try pool.int(
            """
            SELECT count(pg_terminate_backend(pid))::int FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                AND pid <> (SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                            AND backend_type = 'client backend' ORDER BY backend_start DESC LIMIT 1)
            """)
        #expect(terminated == 1)

        #expect(lost.wait { _, losses in !losses.isEmpty })
        #expect(lost.lostSentences == ["Cannot reach PostgreSQL at \(scratch.location.server): the connection was lost."])
        try pool.execute(settingsRow)
        #expect(witness.wait { tables, _ in tables == ["settings"] })
        #expect(lost.tables.isEmpty)
        #expect(stopped.tables.isEmpty)
        #expect(stopped.lostSentences.isEmpty)
    }
}
