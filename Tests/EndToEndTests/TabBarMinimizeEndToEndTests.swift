import Foundation
import Testing

/// Seed 004's tab bar that gets out of the way: scrolling down History minimizes it to one line,
/// scrolling up brings it back; Settings can turn it off.
@Suite(.serialized)
struct TabBarMinimizeEndToEndTests {
    @Test func scrollingDownMinimizesAndUpRestores() throws {
        let s = try TabShellEndToEndTests.launch("--demo")
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        try s.waitFor(text: "[ History")
        try s.press("Down")
        let minimized = try s.waitFor("the compact bar") { $0.contains("[History]") && !$0.contains("[ History") }
        #expect(minimized.contains("tabs"), "\(minimized)")
        try s.press("Up")
        try s.waitFor(text: "[ History")
        // Settings › Tab bar while scrolling down: Never.
        try s.press("4")
        try s.waitFor(text: "Tab bar while scrolling down")
        try s.press("Down", "Down", "Down", "Enter")
        try s.waitFor(text: "Never")
        try s.press("Up", "Up", "Up")
        try s.press("3", "Down", "Down")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try s.screen().contains("[ History"), "the bar stayed full with Never")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }
}
