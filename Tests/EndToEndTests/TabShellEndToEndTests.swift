import CaptureMode
import Domain
import Foundation
import TabShell
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// The real binary in a real pseudo-terminal (tmux): the journeys a user takes.
/// Serialized: each test runs its own tmux server, but the machine has two cores.
@Suite(.serialized, .tags(.e2e))
struct TabShellEndToEndTests {
    /// Runs tabshell in a shell that records `stty -g` before and after, and the exit status.
    static func launch(_ arguments: String = "", columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws -> TmuxSession {
        let script =
            "\(TmuxSession.survivesKeyboardSignals) stty -g > stty.before; echo $$ > shell.pid; \"$TABSHELL\" \(arguments) & \(TmuxSession.waitForApp) stty -g > stty.after; echo \"[app exit $code]\""
        return try TmuxSession(script, columns: columns, rows: rows, environment: environment)
    }

    static func database(in session: TmuxSession) throws -> AppDatabase {
        try AppDatabase.open(at: session.workDirectory.appendingPathComponent("data/tabshell/tabshell.sqlite"))
    }

    /// Asserts the terminal is back to how it was: same stty settings, main screen, cursor visible.
    static func expectTerminalRestored(_ session: TmuxSession) throws {
        let screen = try session.waitFor(text: "[app exit")
        let before = try String(contentsOf: session.workDirectory.appendingPathComponent("stty.before"), encoding: .utf8)
        let after = try String(contentsOf: session.workDirectory.appendingPathComponent("stty.after"), encoding: .utf8)
        #expect(before == after, "stty settings differ after exit")
        #expect(try session.pane("alternate_on") == "0", "still on the alternate screen")
        #expect(try session.pane("cursor_flag") == "1", "cursor left hidden")
        #expect(!screen.contains("+ Create"), "the app's screen was left behind on the main screen")
    }

    static func exitCode(_ session: TmuxSession) throws -> Int? {
        let screen = try session.waitFor(text: "[app exit")
        guard let range = screen.range(of: #"\[app exit (\d+)\]"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst(10).dropLast())
    }

    static func appPID(_ session: TmuxSession) throws -> Int32 {
        let url = session.workDirectory.appendingPathComponent("app.pid")
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let text = try? String(contentsOf: url, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw HarnessError("no app.pid")
    }

    @Test func startsOnInboxAndSwitchesTabs() throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        try s.waitFor("History heading") { $0.contains("[ History") }
        try s.press("4")
        try s.waitFor(text: "[ Settings")
        // On Settings ← and → change the highlighted value; Tab and Shift-Tab still move on.
        try s.press("Tab")
        try s.waitFor(text: "[ Inbox")
        try s.press("Right")
        try s.waitFor(text: "[ History")
        try s.press("Left")
        try s.waitFor(text: "[ Inbox")
        try s.press("BTab")
        try s.waitFor(text: "[ Settings")
        try s.press("BTab", "BTab")
        try s.waitFor(text: "[ Inbox")
        try s.press("Tab")
        let screen = try s.waitFor(text: "[ History")
        #expect(!screen.contains("[ + Create"), "the action tab must never be selected")
        try s.press("q")
        try Self.expectTerminalRestored(s)
        #expect(try Self.exitCode(s) == 0)
    }

    @Test func createThenCloseReturnsToThePreviousTab() throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        try s.waitFor(text: "[ History")
        try s.press("2")
        // Wait for the whole frame: tmux can be read while a frame is still being painted.
        let capture = try s.waitFor("capture mode to cover the tab bar") { $0.contains("Capture") && !$0.contains("[ History") }
        #expect(capture.contains("Close") && capture.contains("Done"))
        try s.press("Escape")
        try s.waitFor(text: "[ History")
        try s.press("+")
        try s.waitFor(text: "Capture")
        try s.press("Escape")
        try s.waitFor(text: "[ History")
        try s.press("q")
        try Self.expectTerminalRestored(s)
        let db = try Self.database(in: s)
        #expect(try db.historyCount() == 0, "Close must write nothing")
    }

    @Test func barcodeCaptureDoneShowsFirstInHistory() throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2")
        try s.waitFor(text: "Barcode")
        try s.press("b")
        try s.waitFor(text: "EAN-13")
        try s.type("4006381333932")
        try s.press("Enter")
        try s.waitFor(text: "should be 1")
        try s.press("BSpace")
        try s.type("1")
        try s.press("Enter")
        try s.waitFor(text: "4006381333931")
        try s.waitFor(text: "Enter or Ctrl-D")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        let history = try s.waitFor(text: "4006381333931")
        #expect(history.contains("EAN-13"))
        try s.press("q")
        try Self.expectTerminalRestored(s)
        let db = try Self.database(in: s)
        let page = try db.historyPage(HistoryPageRequest(start: 0, count: 5))
        #expect(page.totalCount == 1)
        #expect(page.rows.first?.barcode == Barcode(value: "4006381333931", symbology: .ean13))
    }

    @Test func scannerBurstAndPasteAreAccepted() throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "EAN-13")
        try s.paste("036000291452")
        try s.waitFor(text: "UPC-A")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "EAN-13")
        try s.type("96385074\r")
        try s.waitFor(text: "EAN-8")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("q")
        try Self.expectTerminalRestored(s)
        #expect(try Self.database(in: s).historyCount() == 2)
    }

    @Test func noteCaptureFromAnInboxRequestMarksItDone() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-e2e-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let url = dataHome.appendingPathComponent("tabshell/tabshell.sqlite")
        _ = try AppDatabase.open(at: url).addRequest(title: "Describe the dent", body: "Driver side", kind: .note, now: Date())

        let t = try Self.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        try t.waitFor(text: "Describe the dent")
        try t.press("Enter")
        try t.waitFor(text: "For:")
        try t.type("Left door, 3 cm")
        try t.press("Enter")
        try t.type("寿司 🍣 ok")
        try t.press("C-d")
        try t.waitFor(text: "[ Inbox")
        try t.press("q")
        try Self.expectTerminalRestored(t)
        let db = try AppDatabase.open(at: url)
        let inbox = try db.inbox()
        #expect(inbox.pendingCount == 0)
        #expect(inbox.requests.first?.status == .done)
        let row = try db.historyPage(HistoryPageRequest(start: 0, count: 1)).rows.first
        #expect(row?.note == "Left door, 3 cm\n寿司 🍣 ok")
        #expect(row?.requestTitle == "Describe the dent")
    }

    @Test func gatingRoutesCreateToInboxWithAnAlert() throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("4")
        try s.waitFor(text: "Require an Inbox request")
        try s.press("Down", "Enter")
        try s.press("3")
        try s.waitFor(text: "[ History")
        try s.press("2")
        // No request is pending: the alert says how to add one, not to highlight one.
        let alert = try s.waitFor(text: "No request to capture for")
        #expect(alert.contains("[ Inbox"))
        #expect(!alert.contains("Capture ·"))
        #expect(alert.contains("tabshell inbox add"))
        #expect(!alert.contains("Highlight"))
        try s.press("Escape")
        try s.waitForGone(text: "No request to capture for")
        try s.press("q")
        try Self.expectTerminalRestored(s)
        #expect(try Self.database(in: s).settings().captureGating == true, "settings persist")
    }

    @Test func resizeRelaysOutAndTooSmallRecovers() throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.resize(columns: 40, rows: 12)
        try s.waitFor("40-column layout") { screen in screen.split(separator: "\n").allSatisfy { $0.count <= 40 } && screen.contains("Inbox") }
        try s.resize(columns: 20, rows: 6)
        try s.waitFor(text: "too small")
        try s.resize(columns: 100, rows: 30)
        try s.waitFor(text: "[ Inbox")
        try s.press("2")
        try s.waitFor(text: "Capture")
        try s.resize(columns: 30, rows: 9)
        let small = try s.waitFor(text: "Done")
        #expect(small.contains("Close"))
        try s.press("Escape", "q")
        try Self.expectTerminalRestored(s)
    }

    @Test(arguments: ["TERM", "HUP"])
    func signalsExitCleanly(signal: String) throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2")
        try s.waitFor(text: "Capture")
        let pid = try Self.appPID(s)
        kill(pid, signal == "TERM" ? SIGTERM : SIGHUP)
        try Self.expectTerminalRestored(s)
        let code = try Self.exitCode(s)
        #expect(code == 128 + Int(signal == "TERM" ? SIGTERM : SIGHUP))
    }

    @Test func ctrlCQuitsAndRestores() throws {
        let s = try Self.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("C-c")
        try Self.expectTerminalRestored(s)
        #expect(try Self.exitCode(s) == 0)
    }

    @Test func helpListsEveryKeyFromTheKeyTable() throws {
        let s = try Self.launch(columns: 100, rows: 40)
        try s.waitFor(text: "[ Inbox")
        try s.press("?")
        let help = try s.waitFor(text: "Keys")
        #expect(help.contains("Next tab"))
        try s.press("Escape")
        try s.waitForGone(text: "Next tab")
        try s.press("q")
        try Self.expectTerminalRestored(s)
    }

    @Test func corruptDatabaseGetsOneSentenceAndIsKept() throws {
        let s = try TmuxSession(
            "printf 'not a database at all, just text' > bad.sqlite; stty -g > stty.before; \"$TABSHELL\" --db bad.sqlite; echo \"[app exit $?]\"; stty -g > stty.after")
        let screen = try s.waitFor(text: "[app exit")
        #expect(screen.contains("[app exit 1]"))
        #expect(screen.contains("bad.sqlite"))
        let kept = try String(contentsOf: s.workDirectory.appendingPathComponent("bad.sqlite"), encoding: .utf8)
        #expect(kept == "not a database at all, just text")
    }

    @Test func noColorStillShowsTheSelection() throws {
        let s = try Self.launch(environment: ["NO_COLOR": "1"])
        try s.waitFor(text: "[ Inbox")
        try s.press("q")
        try Self.expectTerminalRestored(s)
    }

    /// The zero-based row and column where `text` first appears on the screen.
    static func locate(_ text: String, in screen: String) -> (row: Int, column: Int)? {
        for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let range = line.range(of: text) {
                return (row, line.distance(from: line.startIndex, to: range.lowerBound))
            }
        }
        return nil
    }

    @Test func mouseClicksSelectTabsAndPressCloseAndDone() throws {
        let s = try Self.launch()
        let start = try s.waitFor(text: "[ Inbox")
        let history = try #require(Self.locate("History", in: start))
        try s.click(row: history.row, column: history.column + 2)
        try s.waitFor(text: "[ History")
        let bar = try s.screen()
        let create = try #require(Self.locate("+ Create", in: bar))
        try s.click(row: create.row, column: create.column + 2)
        let picker = try s.waitFor(text: "Capture")
        let close = try #require(Self.locate("Close", in: picker))
        try s.click(row: close.row, column: close.column + 1)
        try s.waitFor(text: "[ History")
        try s.click(row: create.row, column: create.column + 2)
        try s.waitFor(text: "Capture")
        try s.press("n")
        try s.type("clicked")
        let note = try s.screen()
        let done = try #require(Self.locate("Done", in: note))
        try s.click(row: done.row, column: done.column + 1)
        try s.waitFor(text: "[ History")
        try s.waitFor(text: "clicked")
        try s.press("q")
        try Self.expectTerminalRestored(s)
        #expect(try Self.database(in: s).historyCount() == 1)
    }
}
