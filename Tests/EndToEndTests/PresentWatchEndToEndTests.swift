import Foundation
import TestSupport
import Testing

/// Present and watch end to end with two real OpenSSH clients in tmux at different
/// sizes: the presenter's screen shows the code and the count, the watcher follows the same tab,
/// sheet and typed text laid out for its own size, its keys change nothing of the presenter's,
/// a wrong code is one sentence and a non-zero exit, and the presenter leaving ends the watcher
/// with "The presentation ended.".
@Suite(.serialized, .tags(.e2e))
struct PresentWatchEndToEndTests {
    static func code(on screen: String) -> String? {
        guard let range = screen.range(of: #"watch [2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4}"#, options: .regularExpression) else { return nil }
        return String(screen[range].dropFirst(6))
    }

    static func ssh(_ server: ServeEndToEndTests.Server, _ remote: String, columns: Int, rows: Int) throws -> TmuxSession {
        try TmuxSession(
            "\(TmuxSession.survivesKeyboardSignals) \(server.ssh(nil, remote)) </dev/tty & \(TmuxSession.waitForApp) echo \"[app exit $code]\"",
            columns: columns, rows: rows)
    }

    @Test func aRoomFollowsThePresenterAtItsOwnSize() async throws {
        let server = try ServeEndToEndTests.Server(people: [], demo: true)
        let presenter = try Self.ssh(server, "present", columns: 100, rows: 30)
        let first = try await presenter.waitUntil("the watch code", timeout: 30) { Self.code(on: $0) != nil && $0.contains("0 watching") }
        let code = try #require(Self.code(on: first))

        let wrong = code == "2222-2222-2222" ? "3333-3333-3333" : "2222-2222-2222"
        let stranger = try Self.ssh(server, "watch \(wrong)", columns: 80, rows: 24)
        #expect(try await ServeEndToEndTests.exitCode(stranger) == 1)
        #expect(try stranger.screen().contains("no presentation you may watch has the code \(wrong)"))

        let phone = try Self.ssh(server, "watch \(code)", columns: 40, rows: 12)
        try await phone.waitUntil("the phone watching") { $0.contains("watching \(code)") && $0.contains("[Inbox(") }
        let projector = try Self.ssh(server, "watch \(code)", columns: 160, rows: 48)
        try await projector.waitUntil("the projector watching") { $0.contains("watching \(code)") && $0.contains("[ Inbox") }
        try await presenter.waitUntil("two watching") { $0.contains("watch \(code) · 2 watching") }

        // The presenter goes to History and searches; both watchers follow, each at its size.
        try presenter.press("3")
        try await phone.waitUntil("History on the phone") { $0.contains("[Hist") || $0.contains("[History") }
        try presenter.press("/")
        try presenter.type("pal")
        for watcher in [phone, projector] {
            try await watcher.waitUntil("the search and its text") { $0.contains("Search History") && $0.contains("[pal") }
        }
        let phoneScreen = try phone.screen()
        #expect(phoneScreen.split(separator: "\n").allSatisfy { $0.count <= 40 })
        #expect(try projector.screen().split(separator: "\n").contains { $0.count > 100 }, "the projector's lines use its width")

        // A watcher's keys reach nobody: its ? shows its own help, the presenter's screen keeps the search.
        try phone.press("?")
        try await phone.waitUntil("the watcher's help") { $0.contains("Watching \(code)") }
        try phone.press("Escape")
        try phone.type("x")
        let presenterScreen = try presenter.screen()
        #expect(presenterScreen.contains("Search History") && presenterScreen.contains("[pal") && !presenterScreen.contains("[palx"))

        // q leaves the watcher alone; the count goes down.
        try projector.press("q")
        #expect(try await ServeEndToEndTests.exitCode(projector) == 0)
        try await presenter.waitUntil("one watching") { $0.contains("· 1 watching") }

        // The presenter leaves: the watcher is told in one sentence and ends.
        try presenter.press("Escape")
        try presenter.press("q")
        #expect(try await ServeEndToEndTests.exitCode(presenter) == 0)
        try await phone.waitUntil("the end said") { $0.contains("The presentation ended.") }
        #expect(try await ServeEndToEndTests.exitCode(phone) == 0)
    }
}
