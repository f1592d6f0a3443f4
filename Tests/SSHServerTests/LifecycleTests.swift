import Foundation
import TestSupport
import Testing

@testable import SSHServer

/// Starting and stopping.
@Suite(.tags(.e2e)) struct LifecycleTests {
    @Test func stopHangsUpEverySessionAndKillsWhatIgnoresTheHangUp() async throws {
        let folder = try TemporaryFolder()
        let mark = folder.path("draft-kept")
        let server = try await TestServer.start(in: folder, authorization: .open)
        let client = server.client(key: nil)
        // One child saves its draft on SIGHUP, the other ignores SIGHUP and must be killed.
        let polite = try TerminalSession(
            client.sshArguments(["-tt"], command: "trap 'echo kept > \(mark); exit 0' HUP; echo ready; while :; do sleep 0.05; done"),
            columns: 80, rows: 24)
        let stubborn = try TerminalSession(
            client.sshArguments(["-tt"], command: "trap '' HUP; echo ready; while :; do sleep 0.05; done"), columns: 80, rows: 24)
        try await polite.waitFor("ready")
        try await stubborn.waitFor("ready")

        let started = ContinuousClock.now
        await server.server.stop()
        let took = ContinuousClock.now - started

        // The stop grace, then SIGKILL: a bound on waiting, not a speed (a loaded machine takes
        // longer to reap); a child that ignores SIGHUP does not hold the stop for ever.
        print("serve: stop with 2 sessions, one ignoring SIGHUP, returned after \(took)")
        #expect(took < server.server.configuration.limits.stopGrace + .seconds(10))
        #expect(FileManager.default.fileExists(atPath: mark))
        #expect(try await polite.waitForExit() == 0)
        _ = try await stubborn.waitForExit()
        #expect(polite.text.contains("tabshell: the server is stopping."))
        #expect(stubborn.text.contains("tabshell: the server is stopping."), "said after a child killed for ignoring SIGHUP too")
        // Nothing runs after stop: the stubborn child was killed.
        #expect(server.server.runningSessions == 0)
    }

    /// A child that ignores SIGHUP and leaves a process of its own session holding the
    /// terminal: after the SIGKILL the session's output stays open a while, and its last line
    /// still reaches the client before the connection goes.
    @Test func aSessionWhoseOutputOutlivesItsChildStillHearsTheServerIsStopping() async throws {
        let folder = try TemporaryFolder()
        let server = try await TestServer.start(in: folder, authorization: .open, limits: { $0.stopGrace = .milliseconds(200) })
        let session = try TerminalSession(
            server.client(key: nil).sshArguments(
                ["-tt"], command: "trap '' HUP; setsid sleep 0.7 & echo ready; while :; do sleep 0.05; done"),
            columns: 80, rows: 24)
        try await session.waitFor("ready")

        await server.server.stop()

        _ = try await session.waitForExit()
        #expect(session.text.contains("tabshell: the server is stopping."))
    }

    @Test func aSecondStartIsRefused() async throws {
        let folder = try TemporaryFolder()
        let server = try await TestServer.start(in: folder, authorization: .open)

        await #expect(throws: SSHServerError.alreadyStarted) { try await server.server.start() }
        await server.server.stop()
    }

    @Test func aMissingKeysFileStopsTheStartWithASentence() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("missing")

        await #expect(throws: SSHServerError.authorizedKeysUnreadable(path: path, reason: "there is no such file")) {
            _ = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(path))
        }
    }

    /// The file is read only as a regular file and only to its bound: a file one byte past it and
    /// a named pipe (whose open would wait for a writer) each stop the start with a sentence.
    @Test func aKeysFilePastItsBoundOrNotAFileStopsTheStartWithASentence() async throws {
        let folder = try TemporaryFolder()
        let large = folder.path("large")
        var line = Data("# padding\n".utf8)
        line.append(Data(repeating: UInt8(ascii: "#"), count: AuthorizedKeysStore.maximumBytes + 1 - line.count))
        try line.write(to: URL(fileURLWithPath: large))
        await #expect(throws: SSHServerError.authorizedKeysUnreadable(path: large, reason: "it is larger than 16 MiB")) {
            _ = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(large))
        }
        let pipe = folder.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        await #expect(throws: SSHServerError.authorizedKeysUnreadable(path: pipe, reason: "it is not a regular file")) {
            _ = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(pipe))
        }
    }
}
