import Foundation
import NIOCore
import TestSupport
import Testing

@testable import SSHServer

/// Limits refuse what is over them while everyone already in keeps working.
@Suite(.tags(.e2e)) struct LimitsTests {
    @Test func overMaxSessionsIsRefusedWhileTheRunningSessionWorks() async throws {
        let server = try await TestServer.start(in: try TemporaryFolder(), authorization: .open, limits: { $0.maxSessions = 1 })
        let client = server.client(key: nil)
        let first = try client.start("echo ready; read line; echo \"got $line\"")
        try await first.waitForOutput("ready")
        #expect(server.server.runningSessions == 1)

        let second = try await client.run("echo in")
        first.write("still here\n")
        let firstEnd = try await first.finish()
        try await waitUntil { server.server.runningSessions == 0 }
        let third = try await client.run("echo in")
        await server.server.stop()

        #expect(second.status == 1)
        #expect(second.stderr == "tabshell: the server is full (1 session running); try again later.\n")
        #expect(firstEnd.status == 0 && firstEnd.stdout == "ready\ngot still here\n")
        #expect(third.status == 0 && third.stdout == "in\n")
    }

    @Test func aSilentConnectionHoldsAStartupSlotOnlyForTheGraceTime() async throws {
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open,
            limits: {
                $0.maxStartups = 1
                $0.loginGraceTime = .seconds(1)
            })
        let client = server.client(key: nil)
        let working = try client.start("echo ready; read line; echo \"got $line\"")
        try await working.waitForOutput("ready")

        // A client that connects and says nothing (slow, or half-open) takes the one slot…
        let silent = try #require(LoopbackSocket(connectingTo: server.port))
        try await server.logs.waitFor("connected", timeout: .seconds(2))
        let refused = try await client.run("echo in")
        // …the session already in keeps working…
        working.write("x\n")
        let workingEnd = try await working.finish()
        // …and the silent one is closed after the grace time, freeing the slot.
        #expect(silent.peerClosed(within: .seconds(5)))
        let after = try await client.run("echo in")
        await server.server.stop()

        #expect(refused.status == 255 && refused.stdout.isEmpty)
        #expect(server.logs.contains("refused connection", "reason=1 connections are already starting up"))
        #expect(workingEnd.stdout == "ready\ngot x\n")
        #expect(server.logs.contains("closing: no session started within the login grace time", "authenticated=false"))
        #expect(after.status == 0 && after.stdout == "in\n")
    }

    @Test func oneAddressCannotHoldEveryStartupSlot() async throws {
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open,
            limits: {
                $0.maxStartups = 4
                $0.maxStartupsPerSource = 2
            })
        // Another address on this machine plays the host holding silent connections.
        let held = [
            LoopbackSocket(connectingTo: server.port, from: "127.0.0.2"),
            LoopbackSocket(connectingTo: server.port, from: "127.0.0.2"),
        ]
        try await waitUntil { server.logs.all.filter { $0.contains("connected") }.count == 2 }

        let third = try #require(LoopbackSocket(connectingTo: server.port, from: "127.0.0.2"))
        let thirdClosed = third.peerClosed(within: .seconds(5))
        let other = try await server.client(key: nil).run("echo in")
        await server.server.stop()

        #expect(held.allSatisfy { $0 != nil })
        #expect(thirdClosed)
        #expect(server.logs.contains("refused connection", "address=127.0.0.2", "2 connections from this address are already starting up"))
        #expect(other.status == 0 && other.stdout == "in\n")
    }

    @Test func anAddressOverItsConnectionRateIsRefused() async throws {
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open,
            limits: {
                $0.perSourceConnections = 2
                $0.perSourceWindow = .seconds(60)
            })
        let client = server.client(key: nil)

        let first = try await client.run("echo in")
        let second = try await client.run("echo in")
        let third = try await client.run("echo in")
        await server.server.stop()

        #expect(first.status == 0 && second.status == 0)
        #expect(third.status == 255)
        #expect(server.logs.contains("refused connection", "more than 2 connections from this address in 60 s"))
    }

    @Test func anIdleConnectionIsClosedAndItsChildHungUp() async throws {
        let ends = SessionEnds()
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open,
            launcher: { request in
                .run(
                    SSHSessionCommand(
                        executablePath: "/bin/sh", arguments: ["-c", "echo ready; sleep 30"], onExit: { ends.append($0) }))
            }, limits: { $0.idleTimeout = .seconds(2) })
        let idle = try server.client(key: nil).start("x")
        try await idle.waitForOutputWhileTyping("ready")

        let result = try await idle.finish(timeout: .seconds(15))
        try await waitUntil { !ends.all.isEmpty }
        await server.server.stop()

        #expect(result.status == 255)
        #expect(server.logs.contains("closing idle connection"))
        #expect(ends.all.first?.wasHungUp == true)
    }

    @Test func aSessionTheServerIsSlowToStartIsNotTakenForIdleness() async throws {
        let server = try await TestServer.start(
            in: try TemporaryFolder(), authorization: .open,
            launcher: { _ in
                // The server takes longer to start the session than a connection may sit idle,
                // while the client types all along (its input waits unread meanwhile).
                try? await Task.sleep(for: .seconds(3))
                return .run(SSHSessionCommand(executablePath: "/bin/sh", arguments: ["-c", "echo ready; sleep 30"]))
            }, limits: { $0.idleTimeout = .seconds(2) })
        let client = try server.client(key: nil).start("x")
        try await client.waitForOutputWhileTyping("ready")

        let result = try await client.finish(timeout: .seconds(15))
        await server.server.stop()

        #expect(result.stdout == "ready\n")
        #expect(server.logs.contains("closing idle connection"), "the clock ran again once the session had started")
    }

    @Test func theRateLimiterForgetsOldConnections() {
        var limiter = SourceRateLimiter(limit: 2, window: .seconds(10))
        let start = NIODeadline.uptimeNanoseconds(100_000_000_000)

        let answers = [
            limiter.admit("a", now: start),
            limiter.admit("a", now: start + .seconds(1)),
            limiter.admit("a", now: start + .seconds(2)),
            limiter.admit("b", now: start + .seconds(2)),
            limiter.admit("a", now: start + .seconds(11)),
        ]

        #expect(answers == [true, true, false, true, true])
    }
}
