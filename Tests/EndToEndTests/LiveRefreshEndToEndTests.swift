import Domain
import Foundation
import Glibc
import Scanning
import TestSupport
import Testing

/// Several people on one database: what one session commits, or `tabshell inbox add` from a
/// shell, appears in the other sessions within a second, without a key press.
@Suite(.serialized, .tags(.e2e))
struct LiveRefreshEndToEndTests {
    /// Polls the screen until `text` shows; returns the seconds it took.
    static func secondsUntil(_ session: TmuxSession, shows text: String, timeout: Double = 5) throws -> Double {
        let started = Date()
        _ = try session.waitFor(text: text, timeout: timeout)
        return Date().timeIntervalSince(started)
    }

    @Test func commitsAndShellCommandsAppearInOtherSessionsWithoutAKeyPress() throws {
        // Given two sessions on one database, one on its Inbox and one on History
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: shared) }
        let db = shared.appendingPathComponent("shared.sqlite").path
        let a = try TabShellEndToEndTests.launch("--db \(TmuxSession.quote(db))")
        try a.waitFor(text: "[ Inbox")
        let b = try TabShellEndToEndTests.launch("--db \(TmuxSession.quote(db))")
        try b.waitFor(text: "[ Inbox")
        try b.press("3")
        try b.waitFor(text: "[ History")

        // When a request is added from a shell
        let status = try TmuxSession.spawnAndWait(
            [TmuxSession.binary.path, "inbox", "add", "--db", db, "--title", "Scan the pallet at door 4"],
            stdout: shared.appendingPathComponent("add.out").path)
        var started = Date()
        #expect(status == 0)
        // Then session A shows it, and B's tab bar counts it, with no key pressed in either
        _ = try a.waitFor(text: "Scan the pallet at door 4", timeout: 5)
        let inboxSeconds = Date().timeIntervalSince(started)
        _ = try b.waitFor("Inbox (1) on B's tab bar") { $0.contains("Inbox (1)") && $0.contains("[ History") }
        let badgeSeconds = Date().timeIntervalSince(started)

        // When A captures a barcode and presses Done
        try a.press("2")
        try a.waitFor(text: "Barcode")
        try a.press("b")
        try a.waitFor(text: "EAN-13")
        try a.type("4006381333931")
        try a.press("Enter")
        try a.waitFor(text: "Enter or Ctrl-D")
        started = Date()
        try a.press("C-d")
        // Then B, sitting on History, shows the record
        _ = try b.waitFor(text: "4006381333931", timeout: 5)
        let historySeconds = Date().timeIntervalSince(started)

        print(String(format: "live refresh: inbox add → other session %.2f s, tab badge %.2f s; Done in A → B's History %.2f s", inboxSeconds, badgeSeconds, historySeconds))
        #expect(inboxSeconds <= 1.0, "took \(inboxSeconds) s")
        #expect(historySeconds <= 1.0, "took \(historySeconds) s")

        try a.press("q")
        try b.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(a)
        try TabShellEndToEndTests.expectTerminalRestored(b)
    }
}
