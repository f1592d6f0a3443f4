import Foundation
import TestSupport
import Testing

@testable import SSHServer

/// Sessions: what runs, on what terminal, and what the client gets back.
@Suite(.tags(.e2e)) struct SessionTests {
    @Test func anExecCommandsOutputAndExitStatusComeBack() async throws {
        let (server, client) = try await openServer()

        let result = try await client.run("echo hi; echo oops >&2; exit 3")
        await server.server.stop()

        #expect(result.status == 3)
        #expect(result.stdout == "hi\n")
        #expect(result.stderr == "oops\n")
    }

    @Test func anExecCommandReadsTheClientsInputToItsEnd() async throws {
        let (server, client) = try await openServer()

        let result = try await client.run("wc -l; echo done", stdin: "one\ntwo\nthree\n")
        await server.server.stop()

        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } == ["3", "done"])
    }

    @Test func megabytesPassBothWaysWithNothingLost() async throws {
        let (server, client) = try await openServer()
        let input = String(repeating: "0123456789abcdef", count: 131_072)  // 2 MiB

        let upload = try await client.run("wc -c", stdin: input)
        let download = try await client.run("head -c 2097152 /dev/zero | tr '\\0' x; echo; echo end >&2")
        await server.server.stop()

        #expect(upload.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2097152")
        #expect(download.stdout.count == 2_097_153 && download.stdout.hasPrefix("xxxx"))
        #expect(download.stderr == "end\n" && download.status == 0)
    }

    @Test func aTerminalSessionsLastBytesArriveBeforeItsExitStatus() async throws {
        let (server, client) = try await openServer()
        let terminal = try TerminalSession(
            client.sshArguments(["-tt"], command: "head -c 1000000 /dev/zero | tr '\\0' x; echo; echo last; exit 4"),
            columns: 80, rows: 24)

        let status = try await terminal.waitForExit()
        await server.server.stop()

        #expect(status == 4)
        #expect(terminal.text.filter { $0 == "x" }.count == 1_000_000)
        #expect(terminal.text.hasSuffix("last\r\n"))
    }

    @Test func aChildKilledByASignalIsReportedAsSuch() async throws {
        let (server, client) = try await openServer()

        let result = try await client.run("kill -TERM $$")
        await server.server.stop()

        // OpenSSH exits 255 when the remote command was killed by a signal.
        #expect(result.status == 255)
        #expect(server.logs.contains("session ended", "end=killed(signal: 15)"))
    }

    @Test func aTerminalSessionHasTheClientsSizeAndTERM() async throws {
        let (server, client) = try await openServer()
        let terminal = try TerminalSession(
            client.sshArguments(["-tt"], command: "stty size; echo \"TERM=$TERM\"; tty"), columns: 100, rows: 30,
            term: "xterm-256color")

        let status = try await terminal.waitForExit()
        await server.server.stop()

        #expect(status == 0)
        #expect(terminal.text.contains("30 100\r\n"))
        #expect(terminal.text.contains("TERM=xterm-256color\r\n"))
        #expect(terminal.text.contains("/dev/pts/"))
    }

    @Test func aResizedTerminalIsSeenByTheChild() async throws {
        let (server, client) = try await openServer()
        let terminal = try TerminalSession(
            client.sshArguments(["-tt"], command: "trap 'echo \"size $(stty size)\"' WINCH; echo ready; while :; do sleep 0.05; done"),
            columns: 80, rows: 24)
        try await terminal.waitFor("ready")

        terminal.resize(columns: 132, rows: 43)
        try await terminal.waitFor("size 43 132")
        terminal.kill()
        _ = try await terminal.waitForExit()
        await server.server.stop()
    }

    @Test func aDroppedConnectionHangsTheChildUp() async throws {
        let folder = try TemporaryFolder()
        let mark = folder.path("hung-up")
        let ends = SessionEnds()
        let server = try await TestServer.start(in: folder, authorization: .open) { request in
            .run(
                SSHSessionCommand(
                    executablePath: "/bin/sh",
                    arguments: ["-c", "trap 'echo hup > \(mark); exit 0' HUP; echo ready; while :; do sleep 0.05; done"],
                    environment: ["PATH": "/usr/bin:/bin"], onExit: { ends.append($0) }))
        }
        let terminal = try TerminalSession(server.client(key: nil).sshArguments(["-tt"], command: "x"), columns: 80, rows: 24)
        try await terminal.waitFor("ready")

        terminal.kill()
        _ = try await terminal.waitForExit()
        try await waitUntil { FileManager.default.fileExists(atPath: mark) && !ends.all.isEmpty }
        await server.server.stop()

        #expect(ends.all == [SSHSessionEnd(termination: .exited(status: 0), wasHungUp: true)])
        #expect(server.logs.contains("client gone: hanging up the session"))
    }

    @Test func onlyTheClientsLocaleVariablesReachTheLauncher() async throws {
        let (server, client) = try await openServer()

        let result = try await client.run(
            "echo \"$LANG|$LC_TIME|$SECRET|$TERM\"", extra: ["-o", "SendEnv=LANG LC_TIME SECRET"],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "fr_FR.UTF-8", "LC_TIME": "C", "SECRET": "x"])
        await server.server.stop()

        #expect(result.stdout == "fr_FR.UTF-8|C||\n")
    }

    @Test func theLauncherSeesWhoAsksForWhat() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let requests = SessionRequests()
        let server = try await TestServer.start(
            in: folder, authorization: .authorizedKeysFile(try writeAuthorizedKeys([alice.publicLine], in: folder))
        ) { request in
            requests.append(request)
            return .run(SSHSessionCommand(executablePath: "/bin/true"))
        }

        _ = try await server.client(key: alice).run("history export --format 'csv file'")
        await server.server.stop()

        let request = try #require(requests.all.first)
        #expect(request.peer.name == "alice")
        #expect(request.peer.keyFingerprint == alice.fingerprint)
        #expect(request.peer.loginName == "tester")
        #expect(request.peer.remoteAddress.hasPrefix("127.0.0.1:"))
        #expect(request.pseudoTerminal == nil)
        #expect(request.commandWords == ["history", "export", "--format", "csv file"])
    }

    @Test func aChildInheritsNoDescriptorOfTheServer() async throws {
        let folder = try TemporaryFolder()
        let server = try await TestServer.start(in: folder, authorization: .open) { _ in
            .run(SSHSessionCommand(executablePath: "/bin/ls", arguments: ["/proc/self/fd"]))
        }
        let client = server.client(key: nil)

        let withPipes = try await client.run("x")
        let terminal = try TerminalSession(client.sshArguments(["-tt"], command: "x"), columns: 80, rows: 24)
        _ = try await terminal.waitForExit()
        await server.server.stop()

        // 0, 1 and 2, and the directory ls itself opened.
        #expect(withPipes.stdout == "0\n1\n2\n3\n")
        #expect(terminal.text.split(whereSeparator: \.isWhitespace) == ["0", "1", "2", "3"])
    }

    private func openServer() async throws -> (TestServer, OpenSSH) {
        let folder = try TemporaryFolder()
        let server = try await TestServer.start(in: folder, authorization: .open)
        return (server, server.client(key: nil))
    }
}

/// Collects values from the server's callbacks.
final class Collector<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}

typealias SessionEnds = Collector<SSHSessionEnd>
typealias SessionRequests = Collector<SSHSessionRequest>

func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { throw TimedOut(what: "a condition") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
