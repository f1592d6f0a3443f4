import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A watcher whose session stops reading the room (its `tabshell watch` process stopped, as a
/// session stuck behind a dead network would be) holds up neither the presenter nor the other
/// watchers, and when it reads again it draws the newest state, not the ones it missed.
extension PresentWatchEndToEndTests {
    /// The server's child running `tabshell watch CODE` (not the ssh client asking for it): the
    /// only one, while one watcher watches.
    static func watchSession(_ code: String) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).first { pid in
            guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.count == 3 && words[0].hasSuffix("/tabshell") && words[1] == "watch" && words[2] == code
        }
    }

    @Test func aStoppedWatcherHoldsUpNeitherThePresenterNorTheOthers() async throws {
        let server = try ServeEndToEndTests.Server(people: [], demo: true)
        let presenter = try Self.ssh(server, "present", columns: 80, rows: 24)
        let first = try await presenter.waitUntil("the watch code", timeout: 30) { Self.code(on: $0) != nil && $0.contains("0 watching") }
        let code = try #require(Self.code(on: first))

        let stuck = try Self.ssh(server, "watch \(code)", columns: 80, rows: 24)
        try await stuck.waitUntil("the first watcher watching", timeout: 30) { $0.contains("watching \(code)") && $0.contains("Inbox") }
        let session = try #require(Self.watchSession(code), "the stuck watcher's session")
        #expect(kill(session, SIGSTOP) == 0)
        defer { kill(session, SIGCONT) }

        let following = try Self.ssh(server, "watch \(code)", columns: 100, rows: 30)
        try await following.waitUntil("the second watcher watching", timeout: 30) { $0.contains("watching \(code)") && $0.contains("Inbox") }
        try await presenter.waitUntil("two watching", timeout: 30) { $0.contains("watch \(code) · 2 watching") }

        // Far more states than the stopped session's socket holds: one tab switch at a time,
        // each drawn by the presenter before the next.
        for round in 0..<60 {
            try presenter.press("3")
            try await presenter.waitUntil("History, round \(round)", timeout: 30) { $0.contains("[ History ]") }
            try presenter.press("1")
            try await presenter.waitUntil("Inbox, round \(round)", timeout: 30) { $0.contains("[ Inbox") }
        }
        try presenter.press("3")
        try presenter.press("/")
        try presenter.type("pal")
        try await presenter.waitUntil("the search", timeout: 30) { $0.contains("Search History") && $0.contains("[pal") }
        try await following.waitUntil("the search on the following watcher", timeout: 30) { $0.contains("Search History") && $0.contains("[pal") }

        // Reading again, the stopped watcher draws the newest state.
        #expect(kill(session, SIGCONT) == 0)
        try await stuck.waitUntil("the search on the watcher that was stopped", timeout: 30) {
            $0.contains("Search History") && $0.contains("[pal")
        }

        try presenter.press("Escape")
        try presenter.press("q")
        #expect(try await ServeEndToEndTests.exitCode(presenter) == 0)
        for watcher in [stuck, following] {
            try await watcher.waitUntil("the end said", timeout: 30) { $0.contains("The presentation ended.") }
        }
    }
}
