import Foundation
import TestSupport
import Testing

@testable import SSHServer

/// One visitor, many slots: a wrong secret closes the connection after a few and
/// shuts its address out for a while; sessions are capped per address and per key, so one
/// visitor never holds more than its share of the server.
@Suite(.tags(.e2e)) struct VisitorShareTests {
    /// `guess X` is a wrong guess (as a watch code no presentation has); anything else runs.
    static let guessing: SSHSessionLauncher = { request in
        if let command = request.command, command.hasPrefix("guess ") {
            return .wrongGuess("nothing has the code \(command.dropFirst(6)).")
        }
        return await TestLaunchers.shell(request)
    }

    @Test func aConnectionGuessingOnManyChannelsAtOnceIsClosedAfterItsLastWrongGuess() async throws {
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open, launcher: Self.guessing, limits: { $0.maxWrongGuesses = 3 })
        let connection = try await RawSSHConnection.connect(port: server.port)
        // The attack as measured: eight channels guessing at once, again and again.
        var answers: [RawSession] = []
        for round in 0..<20 where connection.isOpen {
            for guess in 0..<8 {
                if let session = try? await connection.session([.exec("guess \(round)-\(guess)")]) { answers.append(session) }
            }
        }
        try await connection.waitForClose()
        for session in answers { try? await session.waitForClose(timeout: .seconds(5)) }
        await connection.close()
        await server.server.stop()

        let refused = answers.filter { $0.stderr.hasPrefix("tabshell: nothing has the code") }
        #expect(refused.count >= 3)
        // At most what was already asked when the third came back: never rounds more.
        #expect(answers.count <= 3 + 10, "\(answers.count) guesses on one connection")
        #expect(refused.contains { $0.stderr.contains("Too many wrong guesses: this connection is closed.") })
        #expect(refused.allSatisfy { $0.exitStatus == 1 })
        #expect(server.logs.contains("closing: too many wrong guesses"))
    }

    @Test func anAddressOverItsWrongGuessesIsShutOutWhileOthersGetIn() async throws {
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open, launcher: Self.guessing,
            limits: {
                $0.maxWrongGuesses = 3
                $0.perSourceWrongGuesses = 4
                $0.perSourceGuessWindow = .seconds(600)
            })
        var guesses = 0
        // Fresh connections from one address, one guess each.
        for _ in 0..<10 {
            guard let connection = try? await RawSSHConnection.connect(port: server.port, from: "127.0.0.3") else { break }
            defer { Task { await connection.close() } }
            guard let session = try? await connection.session([.exec("guess \(guesses)")]) else { break }
            try? await session.waitForClose(timeout: .seconds(5))
            if session.stderr.contains("nothing has the code") { guesses += 1 } else { break }
        }
        let shutOut = try? await RawSSHConnection.connect(port: server.port, from: "127.0.0.3")
        var shutOutRan = false
        if let shutOut, let session = try? await shutOut.session([.exec("echo in")]) {
            try? await session.waitForClose(timeout: .seconds(5))
            shutOutRan = session.stdout == "in\n"
        }
        await shutOut?.close()
        let other = try await RawSSHConnection.connect(port: server.port, from: "127.0.0.4")
        let otherSession = try #require(try await other.session([.exec("echo in")]))
        try await otherSession.waitForClose()
        await other.close()
        await server.server.stop()

        #expect(guesses == 4)
        #expect(!shutOutRan)
        #expect(server.logs.contains("refused connection", "address=127.0.0.3", "4 wrong guesses from this address in 600 s"))
        #expect(otherSession.stdout == "in\n")
    }

    @Test func oneAddressRunsAtMostItsShareOfSessionsOverAnyNumberOfConnections() async throws {
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open,
            limits: {
                $0.maxSessions = 16
                $0.maxSessionsPerSource = 2
                $0.maxSessionsPerConnection = 10
            })
        // Seven connections asking for ten sessions each, as measured.
        var connections: [RawSSHConnection] = []
        var sessions: [RawSession] = []
        for _ in 0..<7 {
            let connection = try await RawSSHConnection.connect(port: server.port, from: "127.0.0.5")
            connections.append(connection)
            for _ in 0..<10 {
                if let session = try await connection.session([.exec("echo ready; sleep 30")]) { sessions.append(session) }
            }
        }
        try await waitUntil { sessions.filter { $0.stdout.contains("ready") || $0.hasClosed }.count == sessions.count }
        let running = server.server.runningSessions
        let refused = sessions.filter { $0.stderr.contains("your address already runs 2 sessions") }
        // Another address still gets in.
        let other = try await RawSSHConnection.connect(port: server.port, from: "127.0.0.6")
        let otherSession = try #require(try await other.session([.exec("echo in")]))
        try await otherSession.waitForClose()
        // A session that ends gives its place back.
        let first = try #require(sessions.first { $0.stdout.contains("ready") })
        await first.close()
        try await waitUntil { server.server.runningSessions == 1 }
        let again = try #require(try await connections[6].session([.exec("echo again")]))
        try await again.waitForClose()
        for connection in connections { await connection.close() }
        await other.close()
        await server.server.stop()

        #expect(running == 2)
        #expect(refused.count == sessions.count - 2)
        #expect(refused.allSatisfy { $0.exitStatus == 1 })
        #expect(otherSession.stdout == "in\n")
        #expect(again.stdout == "again\n")
    }

    @Test func oneKeyRunsAtMostItsShareOfSessionsFromAnyAddress() async throws {
        let folder = try TemporaryFolder()
        let key = try await SSHKeygen.makeKey("ed25519", comment: "ana", in: folder, name: "ana")
        let other = try await SSHKeygen.makeKey("ed25519", comment: "bo", in: folder, name: "bo")
        let keys = try writeAuthorizedKeys([key.publicLine, other.publicLine], in: folder)
        let server = try await TestServer.start(
            in: folder, authorization: .authorizedKeysFile(keys),
            limits: {
                $0.maxSessionsPerKey = 1
                $0.maxSessionsPerSource = 8
            })
        let client = server.client(key: key)
        let first = try client.start("echo ready; read line", extra: ["-b", "127.0.0.7"])
        try await first.waitForOutput("ready")
        let second = try await client.run("echo in", extra: ["-b", "127.0.0.8"])
        let otherKey = try await server.client(key: other).run("echo in", extra: ["-b", "127.0.0.8"])
        first.write("x\n")
        _ = try await first.finish()
        await server.server.stop()

        #expect(second.status == 1)
        #expect(second.stderr == "tabshell: your key already runs 1 session, the most one key may; end one and try again.\n")
        #expect(otherKey.status == 0 && otherKey.stdout == "in\n")
    }

    @Test func anIPv6AddressCountsWithItsWholeSlash64() {
        #expect(SourceAddress.group("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(SourceAddress.group("2001:db8:1:2:bbbb:cccc:dddd:eeee") == "2001:db8:1:2::/64")
        #expect(SourceAddress.group("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(SourceAddress.group("192.0.2.7") == "192.0.2.7")
    }

    /// The log's `address`: the port after the last colon, never read as part of an IPv6
    /// address (fail2ban's <HOST>); a dual-stack listener's IPv4 client as IPv4.
    @Test func theLoggedAddressKeepsTheAddressApartFromThePort() {
        #expect(SourceAddress.withPort("203.0.113.7", 53122) == "203.0.113.7:53122")
        #expect(SourceAddress.withPort("2001:db8::7", 2222) == "[2001:db8::7]:2222")
        #expect(SourceAddress.withPort("::1", 53122) == "[::1]:53122")
        #expect(SourceAddress.withPort("::ffff:192.0.2.7", 53122) == "192.0.2.7:53122")
        #expect(SourceAddress.withPort("::FFFF:192.0.2.7", 1) == "192.0.2.7:1")
    }
}
