import Foundation
import TestSupport
import Testing

/// Seed 004's tab bar that gets out of the way, on the real binary: it minimizes only when
/// History actually scrolls (a ↓ within the screen changes nothing, so nothing jumps), reads
/// `[History]  Inbox (3)` minimized, comes back when the list scrolls up; Settings can turn it off.
@Suite(.serialized, .tags(.e2e))
struct TabBarMinimizeEndToEndTests {
    /// The line of the screen holding the selection pointer.
    static func selectedLine(_ screen: String) -> String {
        screen.split(separator: "\n").first { $0.hasPrefix(" › ") }.map(String.init) ?? ""
    }

    @Test func minimizesOnlyWhenTheListScrollsAndUpRestores() throws {
        // 10 rows: History shows 4 of the demo's 8 records.
        let s = try TabShellEndToEndTests.launch("--demo", columns: 80, rows: 10)
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        let top = try s.waitFor(text: "[ History")
        let firstLine = top.split(separator: "\n").first.map(String.init) ?? ""
        // Three ↓ walk within the screen: the bar keeps its shape and the heading its row.
        try s.press("Down", "Down", "Down")
        let walked = try s.waitFor("the pointer on the fourth record") { Self.selectedLine($0).contains("Delivery arrived") }
        #expect(walked.contains("[ History ]"), "the bar stayed full while nothing scrolled:\n\(walked)")
        #expect(walked.split(separator: "\n").first.map(String.init) == firstLine, "the heading did not move")
        // The next ↓ scrolls the list: now the bar minimizes, and reads right.
        try s.press("Down")
        let minimized = try s.waitFor("the compact bar") { $0.contains("[History]") && !$0.contains("[ History") }
        #expect(minimized.contains("[History]  Inbox (3)"), "\(minimized)")
        #expect(minimized.contains("1-4: tabs"), "\(minimized)")
        // ↑ within the screen keeps it; ↑ until the list scrolls back brings the full bar.
        try s.press("Up")
        let within = try s.waitFor("the pointer on the fourth record again") { Self.selectedLine($0).contains("Delivery arrived") }
        #expect(within.contains("[History]") && !within.contains("[ History"), "↑ that scrolled nothing kept the bar:\n\(within)")
        try s.press("Up", "Up", "Up", "Up")
        try s.waitFor(text: "[ History ]")
        // Settings › Tab bar while scrolling down: Never.
        try s.press("4")
        try s.waitFor(text: "Tab bar while scrolling")
        try s.press("Down", "Down", "Down", "Enter")
        try s.waitFor(text: "Never")
        try s.press("3", "Down", "Down", "Down", "Down")
        let never = try s.waitFor("the pointer past the first screen") { Self.selectedLine($0).contains("96385074") }
        #expect(never.contains("[ History ]"), "the bar stayed full with Never:\n\(never)")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    /// With the bar on top, ↓ and ↑ within the screen leave every row where it was: the heading
    /// stays on its row until the list really scrolls.
    @Test func onTopTheScreenStaysPutWhileNothingScrolls() throws {
        let s = try TabShellEndToEndTests.launch("--demo", columns: 80, rows: 10)
        try s.waitFor(text: "[ Inbox")
        try s.press("4")
        try s.waitFor(text: "Tab bar position")
        try s.press("Down", "Down", "Enter")
        try s.waitFor(text: "\u{2039} Top \u{203A}")
        try s.press("3")
        let before = try s.waitFor(text: "[ History ]")
        func headingRow(_ screen: String) -> Int? { screen.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(" History ") } }
        let row = try #require(headingRow(before))
        #expect(row == 2, "the heading under the bar and its rule:\n\(before)")
        for (keys, record) in [(["Down", "Down"], "036000291452"), (["Up"], "\u{5BFF}\u{53F8}"), (["Down", "Down"], "Delivery arrived")] {
            for key in keys { try s.press(key) }
            let screen = try s.waitFor("the pointer on \(record)") { Self.selectedLine($0).contains(record) }
            #expect(headingRow(screen) == row, "the screen moved while nothing scrolled:\n\(screen)")
            #expect(screen.contains("[ History ]"))
        }
        try s.press("Down")
        let minimized = try s.waitFor("the compact bar") { $0.contains("[History]") && !$0.contains("[ History") }
        #expect(headingRow(minimized) == 1, "minimized on top: the heading under the one-line bar")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }
}
