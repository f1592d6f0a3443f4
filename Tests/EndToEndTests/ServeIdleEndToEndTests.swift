import Foundation
import TabShell
import TestSupport
import Testing

/// `tabshell serve --demo` closes an idle session after a notice the person sees on the app's
/// status line: the server signals the app (SIGUSR1), so no line is written over the
/// curses screen, then closes the connection; the app is hung up as on a dropped link.
///
/// The suite has a pass of its own in `make test` (a quiet machine), and its two journeys run
/// side by side: a 16 s timeout gives the notice at 8 s, long after a first frame (~0.2 s).
@Suite(.tags(.e2e))
struct ServeIdleEndToEndTests {
    @Test func anIdleDemoSessionShowsTheNoticeThenEnds() async throws {
        // The notice comes at half the timeout when that is under a minute: 8 s, the end at 16 s.
        let server = try ServeEndToEndTests.Server(people: [], demo: true, extra: ["--idle-timeout", "16s"])
        let session = try await server.session(nil)

        let noticed = try await session.waitUntil("the idle notice", timeout: 60) {
            $0.contains("Idle: this session closes") && $0.contains("[ Inbox")
        }
        let ended = try await session.waitUntil("the session's end", timeout: 60) { $0.contains("[app exit") }

        #expect(!noticed.contains("tabshell: no input for a while"), "no line written over the screen")
        #expect(ended.contains("[app exit 255]"), "ssh says the connection was closed")
        let log = Self.serverLogFile(of: server)
        #expect(log.contains("idle: signalling the session"), "\(log.suffix(2000))")
        #expect(log.contains("closing idle connection"))
    }

    @Test func aKeyPutsTheIdleTimeoutBack() async throws {
        let server = try ServeEndToEndTests.Server(people: [], demo: true, extra: ["--idle-timeout", "16s"])
        let session = try await server.session(nil)
        _ = try await session.waitUntil("the idle notice", timeout: 60) { $0.contains("Idle: this session closes") }

        try session.press("3")
        let history = try await session.waitUntil("History, the notice gone", timeout: 14) {
            $0.contains("[ History") && !$0.contains("Idle: this session closes")
        }
        // Again a notice, 8 s after the key: the timeout counted from it.
        _ = try await session.waitUntil("the second notice", timeout: 60) { $0.contains("Idle: this session closes") }

        #expect(!history.contains("[app exit"))
    }

    /// The demo server's tabshell.log (under its XDG_DATA_HOME, beside the default database).
    static func serverLogFile(of server: ServeEndToEndTests.Server) -> String {
        let root = server.directory.appendingPathComponent("xdg")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "tabshell.log" } ?? []
        return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }
}
