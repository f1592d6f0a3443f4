import Foundation
import Glibc
import TestSupport
import Testing

/// A served session's child that crashes: the remote client reads the server's one
/// sentence and nothing of the crash — no backtrace, registers, library paths, OS name, nor the
/// server's own paths — while the log beside the database has the crash line and its frames.
@Suite(.serialized, .tags(.e2e))
struct ServedCrashEndToEndTests {
    /// What a crash report shows that a client must never read.
    static let details = ["Backtrac", "Program crashed", "Platform", "Fatal error", "libswiftCore", "details in", "rip ", "Thread 0"]

    static func leaks(_ text: String, server: ServeEndToEndTests.Server) -> [String] {
        details.filter(text.contains) + (text.contains(server.directory.path) ? [server.directory.path] : [])
    }

    @Test func theAppOverSSHCrashingSaysOneSentence() async throws {
        let server = try ServeEndToEndTests.Server()
        let ana = try await server.session("ana")
        let pid = try #require(server.appPIDs(of: "ana").first)

        kill(pid, SIGSEGV)

        let screen = try await ana.waitUntil(text: "[app exit")
        #expect(screen.contains("the session ended unexpectedly (signal 11)"), "\(screen)")
        #expect(Self.leaks(screen, server: server).isEmpty, "the client read \(Self.leaks(screen, server: server)):\n\(screen)")
        let log = server.appLog
        #expect(log.contains("critical [\(pid)] crashed on SIGSEGV"), "\(log.suffix(2000))")
        #expect(log.contains("tabshell("), "the frames are in the log:\n\(log.suffix(2000))")
    }

    @Test func aCommandOverSSHCrashingSaysOneSentence() async throws {
        let server = try ServeEndToEndTests.Server()
        let errors = server.directory.appendingPathComponent("client.err").path
        let output = server.directory.appendingPathComponent("client.out").path
        // `inbox import -` reads until the client's input ends: the child is alive to be crashed.
        let ssh = server.ssh("ana", "inbox import -", tty: false)
        let client = try Stress.spawn(
            ["/bin/sh", "-c", "sleep 60 | \(ssh) >\(TmuxSession.quote(output)) 2>\(TmuxSession.quote(errors))"], log: "/dev/null")
        defer { Stress.stop(client) }
        var child: Int32?
        _ = await ServeEndToEndTests.poll(timeout: 20) {
            child = Stress.pids(commandLineContaining: "inbox import -").first { pid in
                Stress.descends(pid, from: server.pid) && ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("tabshell")
            }
            return child != nil
        }
        let pid = try #require(child, "the served inbox import never started:\n\(server.serverLog)")
        // Crashed once it has set itself up (its standard error is the log), not while it execs.
        let log = server.database.deletingLastPathComponent().appendingPathComponent("tabshell.log").path
        let ready = await ServeEndToEndTests.poll(timeout: 20) {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/2")) == log
        }
        #expect(ready, "the served child's standard error is the log")

        kill(pid, SIGSEGV)

        var said = ""
        _ = await ServeEndToEndTests.poll(timeout: 20) {
            said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            return said.contains("Reconnect")
        }
        let lines = said.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 1 && said.contains("the session ended unexpectedly (signal 11)"), "the client read:\n\(said)")
        let everything = said + ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        #expect(Self.leaks(everything, server: server).isEmpty, "the client read \(Self.leaks(everything, server: server)):\n\(everything)")
        #expect(server.appLog.contains("critical [\(pid)] crashed on SIGSEGV"), "\(server.appLog.suffix(2000))")
    }
}
