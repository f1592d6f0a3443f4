import Foundation
import Logging
import PostgresNIO
import Storage
import TestSupport
import Testing

@testable import PostgresStorage

/// The sentence `body` fails with.
private func failure<T>(_ body: () throws(StorageError) -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.message
    }
}

/// A loopback port nothing listens on (bound, then released).
private func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
        }
    }
    guard bound else { throw TestFailure("bind() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}

@Suite("PostgreSQL connections", .serialized, .tags(.postgres))
struct ConnectionTests {
    @Test func connectsAndRunsAStatement() throws {
        let pool = try PostgresPool(location: TestServer.location())
        defer { pool.close() }
        let version = try pool.withConnection { session throws(StorageError) in
            try session.value("SHOW server_version_num", as: String.self)
        }
        #expect((Int(version ?? "") ?? 0) >= 150_000)
        let sum = try pool.withConnection { session throws(StorageError) in
            try session.value("SELECT \(40) + \(2)", as: Int.self)
        }
        #expect(sum == 42)
    }

    @Test func aWrongPasswordIsOneSentenceWithoutThePassword() throws {
        var location = try TestServer.location()
        location.password = "Not-The-Password-9"
        let pool = try PostgresPool(location: location)
        defer { pool.close() }
        let sentence = failure { () throws(StorageError) in try pool.withConnection { _ throws(StorageError) in 1 } }
        #expect(
            sentence == "Cannot reach PostgreSQL at \(location.server): password authentication failed for user \"\(location.user)\".")
        #expect(sentence?.contains("Not-The-Password-9") == false)
    }

    @Test func noPasswordIsOneSentence() throws {
        var location = try TestServer.location()
        location.password = nil
        let pool = try PostgresPool(location: location)
        defer { pool.close() }
        let sentence = failure { () throws(StorageError) in try pool.withConnection { _ throws(StorageError) in 1 } }
        #expect(
            sentence
                == "Cannot reach PostgreSQL at \(location.server): the server asks for a password and none was given (in the URL, PGPASSWORD or ~/.pgpass)."
        )
    }

    @Test func aPortNobodyListensOnIsOneSentence() throws {
        let port = try closedPort()
        let location = try PostgresLocation(url: "postgres://u:p@127.0.0.1:\(port)/db", environment: [:])
        let pool = try PostgresPool(location: location)
        defer { pool.close() }
        let sentence = failure { () throws(StorageError) in try pool.withConnection { _ throws(StorageError) in 1 } }
        #expect(sentence == "Cannot reach PostgreSQL at 127.0.0.1:\(port): connection refused.")
    }

    @Test func anUnknownHostIsOneSentence() throws {
        let location = try PostgresLocation(url: "postgres://u:p@no-such-host.invalid/db", environment: [:])
        let pool = try PostgresPool(location: location)
        defer { pool.close() }
        let sentence = failure { () throws(StorageError) in try pool.withConnection { _ throws(StorageError) in 1 } }
        #expect(sentence == "Cannot reach PostgreSQL at no-such-host.invalid:5432: the host name no-such-host.invalid cannot be resolved.")
    }

    @Test func aMissingSocketIsOneSentence() throws {
        let folder = try TemporaryFolder()
        let location = try PostgresLocation(url: "postgres://u@/db?host=\(folder.path)", environment: [:])
        let pool = try PostgresPool(location: location)
        defer { pool.close() }
        let sentence = failure { () throws(StorageError) in try pool.withConnection { _ throws(StorageError) in 1 } }
        #expect(sentence == "Cannot reach PostgreSQL at \(folder.path) (port 5432): no such file or directory.")
    }

    @Test func sslModesAgainstAServerWithoutTLS() throws {
        // The test server has no certificate: prefer and allow connect in plain text, disable
        // too, and require refuses in one sentence.
        let base = try TestServer.location()
        for mode in [PostgresSSLMode.disable, .allow, .prefer] {
            var location = base
            location.sslMode = mode
            let pool = try PostgresPool(location: location)
            defer { pool.close() }
            let ssl = try pool.withConnection { session throws(StorageError) in
                try session.value("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", as: Bool.self)
            }
            #expect(ssl == false, "\(mode)")
        }
        for mode in [PostgresSSLMode.require, .verifyCA, .verifyFull] {
            var location = base
            location.sslMode = mode
            let pool = try PostgresPool(location: location)
            defer { pool.close() }
            let sentence = failure { () throws(StorageError) in try pool.withConnection { _ throws(StorageError) in 1 } }
            #expect(
                sentence
                    == "Cannot reach PostgreSQL at \(location.server): the server does not offer TLS, which sslmode=\(mode.rawValue) requires.")
        }
    }

    @Test func anUnreadableRootCertificateFileIsRefusedAtOnce() throws {
        var location = try TestServer.location()
        location.sslMode = .verifyFull
        location.trustRoots = .file("/nonexistent/root.crt")
        let sentence = failure { () throws(StorageError) in try PostgresPool(location: location) }
        #expect(sentence?.hasPrefix("The TLS settings for PostgreSQL at \(location.server) cannot be used:") == true, "\(sentence ?? "")")
    }

    @Test func aFailedStatementIsOneSentenceAndTheConnectionStaysUsable() throws {
        let pool = try PostgresPool(location: TestServer.location(), maximumConnections: 1)
        defer { pool.close() }
        let sentence = failure { () throws(StorageError) in
            try pool.withConnection { session throws(StorageError) in try session.rows("SELECT * FROM no_such_table") }
        }
        #expect(sentence == "PostgreSQL at \(pool.location.server) refused a statement: relation \"no_such_table\" does not exist.")
        let one = try pool.withConnection { session throws(StorageError) in try session.value("SELECT 1", as: Int.self) }
        #expect(one == 1)
        #expect(pool.openConnections == 1)
    }

    @Test func aTransactionThatThrowsLeavesNothing() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool()
        defer { pool.close() }
        try pool.withConnection { session throws(StorageError) in try session.execute("CREATE TABLE t (v int)") }
        let sentence = failure { () throws(StorageError) in
            try pool.transaction { session throws(StorageError) in
                try session.execute("INSERT INTO t VALUES (1)")
                throw StorageError.invalidInput("Changed my mind.")
            }
        }
        #expect(sentence == "Changed my mind.")
        try pool.transaction { session throws(StorageError) in try session.execute("INSERT INTO t VALUES (2)") }
        let values = try pool.withConnection { session throws(StorageError) in
            try session.rows("SELECT v FROM t ORDER BY v").map { row throws(StorageError) in
                do { return try row.decode(Int.self) } catch { throw StorageError.sql("bad row") }
            }
        }
        #expect(values == [2])
    }

    @Test func thePoolNeverOpensMoreThanItsMaximum() throws {
        let scratch = try ScratchDatabase()
        let pool = try scratch.pool(maximumConnections: 3)
        defer { pool.close() }
        let peak = Peak()
        let group = DispatchGroup()
        let errors = Errors()
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                do {
                    try pool.withConnection { session throws(StorageError) in
                        peak.record(pool.openConnections)
                        let others = try session.value(
                            "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()", as: Int.self)
                        peak.record(others ?? 0)
                        try session.execute("SELECT pg_sleep(0.05)")
                    }
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        group.wait()
        #expect(errors.all.isEmpty)
        #expect(peak.value <= 3)
        #expect(peak.value >= 1)
    }

    @Test func aStatementUnansweredPastTheDeadlineIsOneSentenceAndItsConnectionIsDropped() throws {
        // Two seconds: far above a loaded machine's round trip, far below the statement's minute.
        let pool = try PostgresPool(location: TestServer.location(), maximumConnections: 1, answerTimeout: .seconds(2))
        defer { pool.close() }
        let firstBackend = try pool.withConnection { session throws(StorageError) in
            try session.value("SELECT pg_backend_pid()", as: Int.self)
        }
        let sentence = failure { () throws(StorageError) in
            try pool.withConnection { session throws(StorageError) in try session.execute("SELECT pg_sleep(60)") }
        }
        #expect(sentence == "Cannot reach PostgreSQL at \(pool.location.server): no answer within 2 s.")
        // The next statement gets a new connection, and answers.
        let nextBackend = try pool.withConnection { session throws(StorageError) in
            try session.value("SELECT pg_backend_pid()", as: Int.self)
        }
        #expect(nextBackend != nil)
        #expect(nextBackend != firstBackend)
        #expect(pool.openConnections == 1)
    }

    @Test func deadlinesReadAsSeconds() {
        #expect(PostgresSession.seconds(.seconds(30)) == "30 s")
        #expect(PostgresSession.seconds(.milliseconds(300)) == "0.3 s")
        #expect(PostgresSession.seconds(.milliseconds(1500)) == "1.5 s")
    }

    @Test func aClosedPoolRefusesWork() throws {
        let pool = try PostgresPool(location: TestServer.location())
        pool.close()
        let sentence = failure { () throws(StorageError) in try pool.withConnection { _ throws(StorageError) in 1 } }
        #expect(sentence == "Cannot reach PostgreSQL at \(pool.location.server): the connection pool was closed.")
    }

    @Test func nothingLogsThePasswordEvenAtTrace() throws {
        let store = CapturingLogHandler.Store()
        let logger = CapturingLogHandler.logger(into: store)
        let location = try TestServer.location()
        let password = try TestServer.password()
        let pool = try PostgresPool(location: location, logger: logger)
        _ = try pool.withConnection { session throws(StorageError) in
            try session.transaction { session throws(StorageError) in try session.value("SELECT 1", as: Int.self) }
        }
        var wrong = location
        wrong.password = password + "-wrong"
        let failing = try PostgresPool(location: wrong, logger: logger)
        _ = failure { () throws(StorageError) in try failing.withConnection { _ throws(StorageError) in 1 } }
        failing.close()
        pool.close()
        let lines = store.all
        #expect(!lines.isEmpty, "postgres-nio logged nothing at trace: the check below would prove nothing")
        for line in lines {
            #expect(!line.contains(password), "\(line)")
        }
    }
}

/// The highest number recorded, from several threads.
final class Peak: @unchecked Sendable {
    private let lock = NSLock()
    private var highest = 0
    func record(_ value: Int) {
        lock.lock()
        highest = max(highest, value)
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return highest
    }
}

/// Sentences collected from several threads.
final class Errors: @unchecked Sendable {
    private let lock = NSLock()
    private var sentences: [String] = []
    func append(_ sentence: String) {
        lock.lock()
        sentences.append(sentence)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return sentences
    }
}

extension PostgresPool {
    /// How many connections are open (idle or in use).
    var openConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }
}
