import CPty
import Foundation
import Logging
import TestSupport
import Testing

@testable import SSHServer

#if canImport(Glibc)
import Glibc
#endif

/// Terminal sessions forked from a warmed template (Tests/TemplateProbe is the template's
/// program here, as tabshell is under `serve`): each session is a child of the server with its
/// own arguments, environment, directory, memory limit and terminal, and nothing of the
/// template's or the server's.
@Suite(.serialized) struct SessionTemplateTests {
    @Test func aTerminalSessionIsForkedWithItsOwnSettingsOnly() async throws {
        let folder = try TemporaryFolder()
        let (server, template) = try await start(in: folder)
        let command = [
            "echo \"forked=$PROBE_FORKED given=$GIVEN home=${HOME-unset} served=$TABSHELL_SERVED\"",
            "stty size", "tty", "pwd", "echo data=$(ulimit -d)", "echo fds=$(ls /proc/self/fd | tr '\\n' ' ')",
            "echo parent=$PPID", "exit 7",
        ].joined(separator: "; ")
        let terminal = try TerminalSession(
            server.client(key: nil).sshArguments(["-tt"], command: command), columns: 100, rows: 30)

        let status = try await terminal.waitForExit()
        await server.server.stop()

        #expect(status == 7)
        let text = terminal.text
        #expect(text.contains("forked=1 given=yes home=unset served=1\r\n"))
        #expect(text.contains("30 100\r\n"))
        #expect(text.contains("/dev/pts/"))
        #expect(text.contains(folder.url.resolvingSymlinksInPath().path + "\r\n") || text.contains(folder.url.path + "\r\n"))
        #expect(text.contains("data=\(300 * 1024)\r\n"))
        // 0, 1 and 2 (the terminal), and the folder ls opened: no socket of the template's.
        #expect(text.contains("fds=0 1 2 3\r\n"))
        // The server (this process) is its parent, so it waits for it as for a child it started.
        #expect(text.contains("parent=\(getpid())\r\n"))
        #expect(template.status.forked == 1)
    }

    @Test func aTemplateThatDiesIsReplaced() async throws {
        let folder = try TemporaryFolder()
        let logs = LogCapture()
        let (server, template) = try await start(in: folder, logger: logs.logger)
        let first = try #require(template.status.pid)
        #expect(kill(first, SIGKILL) == 0)

        let terminal = try TerminalSession(
            server.client(key: nil).sshArguments(["-tt"], command: "echo forked=$PROBE_FORKED"), columns: 80, rows: 24)
        let status = try await terminal.waitForExit()
        await server.server.stop()

        #expect(status == 0)
        #expect(terminal.text.contains("forked=1"))
        #expect(template.status.started == 2)
        #expect(template.status.pid != first)
        #expect(logs.contains("the session template stopped answering"))
    }

    @Test func whatATemplateCannotTakeIsExecd() async throws {
        let folder = try TemporaryFolder()
        let (server, template) = try await start(in: folder)
        let client = server.client(key: nil)

        // No terminal: exec'd with pipes, as before.
        let piped = try await client.run("echo forked=$PROBE_FORKED")
        // An environment over what a request to the template carries: exec'd.
        let large = try TerminalSession(
            client.sshArguments(["-tt"], command: "echo forked=$PROBE_FORKED size=${#HUGE3}"), columns: 80, rows: 24)
        let status = try await large.waitForExit()
        await server.server.stop()

        #expect(piped.stdout == "forked=0\n")
        #expect(status == 0)
        #expect(large.text.contains("forked=0 size=\(Self.hugePart)"))
        #expect(template.status.forked == 0)
    }

    @Test func whatASessionLeavesBehindIsReapedAndNothingElse() async throws {
        let folder = try TemporaryFolder()
        let (server, _) = try await start(in: folder)
        // Started by this process (not a session) in a session of its own, and ended: its
        // status is this test's to read, never the server's.
        let own = try TestSupport.ChildProcess.spawn(
            "/usr/bin/setsid", arguments: ["/bin/sh", "-c", "exit 3"], environment: [:], outputPath: folder.path("own.log"))

        // The session's background child outlives it (it ignores the hang-up), becomes this
        // process's (a subreaper), ends, and is reaped.
        let terminal = try TerminalSession(
            server.client(key: nil).sshArguments(["-tt"], command: "trap '' HUP; sleep 3 & echo left=$!"), columns: 80, rows: 24)
        _ = try await terminal.waitForExit()
        let left = try #require(
            terminal.text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("left=") }
                .flatMap { pid_t($0.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) })
        let status = try String(contentsOfFile: "/proc/\(left)/status", encoding: .utf8).split(separator: "\n")
        let parent = status.first { $0.hasPrefix("PPid:") }
        #expect(parent.map { $0.split(separator: "\t").last == "\(getpid())" } == true)
        // Its session: the session's pid, which the reaper keeps while any of its processes is around.
        let stat = try String(contentsOfFile: "/proc/\(left)/stat", encoding: .utf8)
        let session = try #require(stat.split(separator: ")").last?.split(separator: " ").dropFirst(3).first.flatMap { pid_t($0) })
        #expect(ChildReaper.books.withLockedValue { $0.sessionIDs.contains(session) })
        try await waitUntil(timeout: .seconds(30)) { access("/proc/\(left)", F_OK) != 0 }
        try await waitUntil(timeout: .seconds(30)) { !ChildReaper.books.withLockedValue { $0.sessionIDs.contains(session) } }
        ChildReaper.sweep()
        await server.server.stop()

        #expect(own.wait() == .exited(3))
    }

    @Test func aTemplateThatNeverAnswersIsGivenUpAndSessionsAreExecd() async throws {
        let folder = try TemporaryFolder()
        let logs = LogCapture()
        // A program that is no template: it starts, and ends without reading its socket.
        let template = try #require(SessionTemplate(executablePath: "/bin/false", logger: logs.logger))
        let server = try await TestServer.start(
            in: folder, authorization: .open,
            launcher: { request in
                .run(SSHSessionCommand(executablePath: "/bin/false"))
            },
            configure: { $0.sessionTemplate = template })
        var statuses: [Int32] = []
        for _ in 1...4 {
            let terminal = try TerminalSession(server.client(key: nil).sshArguments(["-tt"], command: "false"), columns: 80, rows: 24)
            statuses.append(try await terminal.waitForExit())
        }
        await server.server.stop()

        // Each ran (exec'd): /bin/false's own status came back.
        #expect(statuses == [1, 1, 1, 1])
        #expect(template.status.forked == 0)
        #expect(template.status.started == SessionTemplate.failuresBeforeGivingUp)
        #expect(logs.contains("sessions are exec'd from now on"))
    }

    @Test func aTemplateWithAThreadNeverForksAndSessionsAreExecd() async throws {
        let folder = try TemporaryFolder()
        let logs = LogCapture()
        let probe = try #require(Self.probe())
        // The same program under a name that makes its warm-up start a thread.
        let threaded = folder.path("TemplateProbeThreaded")
        #expect(symlink(probe, threaded) == 0)
        let template = try #require(SessionTemplate(executablePath: threaded, logger: logs.logger))
        let server = try await TestServer.start(
            in: folder, authorization: .open,
            launcher: { request in
                .run(SSHSessionCommand(executablePath: threaded, arguments: [request.command ?? "true"], environment: ["PATH": "/usr/bin:/bin"]))
            },
            configure: { $0.sessionTemplate = template })
        var texts: [String] = []
        for _ in 1...2 {
            let terminal = try TerminalSession(
                server.client(key: nil).sshArguments(["-tt"], command: "echo forked=$PROBE_FORKED"), columns: 80, rows: 24)
            #expect(try await terminal.waitForExit() == 0)
            texts.append(terminal.text)
        }
        await server.server.stop()

        #expect(texts.allSatisfy { $0.contains("forked=0") }, "\(texts)")
        #expect(template.status.forked == 0)
        #expect(logs.contains("sessions are exec'd from now on"))
    }

    // MARK: -

    static let hugePart = Int(CPTY_TEMPLATE_MAX_WORDS_BYTES) / 3 + 1

    private func start(in folder: TemporaryFolder, logger: Logger = Logger(label: "template-test")) async throws
        -> (TestServer, SessionTemplate)
    {
        let probe = try #require(Self.probe(), "no TemplateProbe beside the test runner: run `swift build --build-tests`")
        let template = try #require(SessionTemplate(executablePath: probe, logger: logger))
        let directory = folder.url.path
        let server = try await TestServer.start(
            in: folder, authorization: .open,
            launcher: { request in
                var environment = request.terminalEnvironment
                environment["PATH"] = "/usr/bin:/bin"
                environment["GIVEN"] = "yes"
                if request.command?.contains("HUGE") == true {
                    // Three variables, each under what exec takes for one (128 KiB).
                    for index in 1...3 { environment["HUGE\(index)"] = String(repeating: "x", count: Self.hugePart) }
                }
                var command = SSHSessionCommand(
                    executablePath: probe, arguments: [request.command ?? "echo shell"], environment: environment,
                    workingDirectory: directory)
                command.memoryLimit = 300 << 20
                return .run(command)
            },
            configure: { $0.sessionTemplate = template })
        return (server, template)
    }

    private static func probe() -> String? {
        guard let runner = TestSupport.ChildProcess.currentExecutable() else { return nil }
        let path = URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("TemplateProbe").path
        return access(path, X_OK) == 0 ? path : nil
    }
}
