import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import TestSupport
import Testing

/// The screen-reader mode on the real binary in tmux: the terminal's own cursor (what a
/// screen reader or a braille display follows, as tmux reports it) is visible, moves with the
/// selection, sits on an alert's focused button and in a text field while typing; the last row
/// announces the tab, capture and the alert.
@Suite(.serialized, .tags(.e2e))
struct ScreenReaderEndToEndTests {
    /// The terminal cursor as tmux sees it: column, row (zero-based) and whether it is shown.
    struct Cursor: Equatable, CustomStringConvertible {
        var column: Int
        var row: Int
        var visible: Bool
        var description: String { "(\(column), \(row))\(visible ? "" : " hidden")" }
    }

    static func cursor(_ s: TmuxSession) throws -> Cursor {
        let words = try s.tmux(["display-message", "-p", "-t", s.name, "#{cursor_x} #{cursor_y} #{cursor_flag}"])
            .split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
        guard words.count == 3 else { throw HarnessError("tmux gave no cursor") }
        return Cursor(column: words[0], row: words[1], visible: words[2] == 1)
    }

    /// Waits until the screen has settled with the cursor where `condition` wants it (given the
    /// screen's lines and the cursor); returns both, or throws with the last seen.
    @discardableResult
    static func waitForCursor(
        _ s: TmuxSession, _ what: String, timeout: Double = 10, _ condition: ([String], Cursor) -> Bool
    ) throws -> (lines: [String], cursor: Cursor) {
        let deadline = Date().addingTimeInterval(timeout)
        var last: ([String], Cursor) = ([], Cursor(column: -1, row: -1, visible: false))
        var matched: String?
        while Date() < deadline {
            let screen = try s.screen()
            let cursor = try Self.cursor(s)
            let lines = screen.components(separatedBy: "\n")
            last = (lines, cursor)
            let seen = "\(screen)\(cursor)"
            if condition(lines, cursor) {
                if seen == matched { return last }
                matched = seen
            } else {
                matched = nil
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw HarnessError("timed out waiting for \(what); cursor \(last.1), screen:\n\(last.0.joined(separator: "\n"))")
    }

    /// The line under the cursor.
    static func line(_ lines: [String], _ cursor: Cursor) -> String {
        lines.indices.contains(cursor.row) ? lines[cursor.row] : ""
    }

    static func launch(_ arguments: String = "--screen-reader", environment: [String: String] = [:]) throws -> TmuxSession {
        let s = try TmuxSession.gatedLaunch(arguments, environment: environment)
        let database = s.workDirectory.appendingPathComponent("data/tabshell/tabshell.sqlite")
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        let db = try AppDatabase.open(at: database)
        let now = Date()
        for index in 1...6 {
            _ = try db.addRequest(title: "Request \(index)", body: "Body \(index)", kind: .barcode, now: now)
            _ = try db.commitCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "CODE-\(index)", symbology: .freeText)), now: now)
        }
        try s.go()
        return s
    }

    @Test func theCursorFollowsTheSelectionAndTheLastRowAnnounces() throws {
        let s = try Self.launch()
        // The Inbox: the cursor on the selected request's pointer, the announcement on row 23.
        var (lines, cursor) = try Self.waitForCursor(s, "the cursor on the first request") { lines, cursor in
            cursor.visible && Self.line(lines, cursor).dropFirst(cursor.column).hasPrefix("> ")
                && lines.count > 23 && lines[23].hasPrefix("Inbox tab, 6 requests, 6 pending")
        }
        let first = Self.line(lines, cursor)
        #expect(!lines.joined().contains("─") && !lines.joined().contains("│"))
        for step in 1...3 {
            try s.press("Down")
            let before = cursor
            (lines, cursor) = try Self.waitForCursor(s, "the cursor one row down") { lines, cursor in
                cursor.visible && cursor.row == before.row + 1 && Self.line(lines, cursor).dropFirst(cursor.column).hasPrefix("> ")
            }
            #expect(Self.line(lines, cursor) != first, "step \(step)")
        }
        try s.press("Up")
        (lines, cursor) = try Self.waitForCursor(s, "the cursor back up one") { lines, c in c.visible && c.row == cursor.row - 1 }

        // History: the announcement names the tab; the cursor is on its selected record.
        try s.press("3")
        (lines, cursor) = try Self.waitForCursor(s, "History announced with the cursor on a record") { lines, cursor in
            lines.count > 23 && lines[23].hasPrefix("History tab, 6 records") && cursor.visible
                && Self.line(lines, cursor).dropFirst(cursor.column).hasPrefix("> ") && Self.line(lines, cursor).contains("CODE-")
        }
        #expect(lines.contains { $0.contains("History (selected)") })
        let historyRow = cursor.row
        try s.press("Down")
        try Self.waitForCursor(s, "the History cursor one row down") { lines, c in
            c.row == historyRow + 1 && Self.line(lines, c).dropFirst(c.column).hasPrefix("> ")
        }
    }

    @Test func theCursorSitsInTheFieldWhileTypingAndOnTheAlertsFocusedButton() throws {
        let s = try Self.launch()
        try Self.waitForCursor(s, "the Inbox") { lines, cursor in lines.count > 23 && lines[23].hasPrefix("Inbox tab") && cursor.visible }
        // Capture's picker: the cursor on the highlighted kind, moving with it.
        try s.press("2")
        var (lines, cursor) = try Self.waitForCursor(s, "the picker with the cursor on a kind") { lines, cursor in
            lines.count > 23 && lines[23].hasPrefix("Capture") && Self.line(lines, cursor).dropFirst(cursor.column).hasPrefix("> ")
        }
        let pickerRow = cursor.row
        try s.press("Down")
        try Self.waitForCursor(s, "the picker's cursor one kind down") { lines, c in
            c.row == pickerRow + 1 && Self.line(lines, c).dropFirst(c.column).hasPrefix("> ")
        }
        try s.press("b")
        // The code field: the cursor right after what has been typed, one key at a time.
        (lines, cursor) = try Self.waitForCursor(s, "the empty code field") { lines, c in Self.line(lines, c).contains("Code [") && c.visible }
        let field = try #require(Self.line(lines, cursor).range(of: "Code [")).upperBound
        let fieldColumn = Self.line(lines, cursor).distance(from: Self.line(lines, cursor).startIndex, to: field)
        #expect(cursor.column == fieldColumn)
        for (count, character) in "ABC-1".enumerated() {
            try s.type(String(character))
            try Self.waitForCursor(s, "the cursor after \(count + 1) characters") { lines, c in
                c.visible && c.row == cursor.row && c.column == fieldColumn + count + 1
                    && Self.line(lines, c).contains("Code [\(String(Array("ABC-1").prefix(count + 1)))")
            }
        }
        try s.press("Left")
        try Self.waitForCursor(s, "the cursor one back") { _, c in c.row == cursor.row && c.column == fieldColumn + 4 }

        // Esc on typed work asks first: the cursor on the focused button, the question announced.
        try s.press("Escape")
        (lines, cursor) = try Self.waitForCursor(s, "the question with Keep editing focused") { lines, c in
            // The announcement is never cut: it may start on a row above the last one.
            lines.suffix(8).contains { $0.hasPrefix("Alert: Discard this capture? Keep editing focused") }
                && Self.line(lines, c).dropFirst(c.column).hasPrefix("[ Keep editing")
        }
        #expect(Self.line(lines, cursor).contains("> [ Keep editing"))
        try s.press("Enter")
        try Self.waitForCursor(s, "back in the field") { _, c in c.row != cursor.row && c.column == fieldColumn + 4 }
    }

    @Test func withoutTheModeTheCursorStaysHiddenInLists() throws {
        let s = try Self.launch("")
        try s.waitFor(text: "Request 6")
        try Self.waitForCursor(s, "a hidden cursor") { lines, c in !c.visible && !lines.joined().contains("(selected)") }
        // The environment variable turns the mode on too (what tabshell serve passes from SSH's SetEnv).
        let t = try Self.launch("", environment: ["TABSHELL_SCREEN_READER": "1"])
        try Self.waitForCursor(t, "the mode from the environment") { lines, c in
            c.visible && lines.count > 23 && lines[23].hasPrefix("Inbox tab")
        }
    }

    /// `screen_reader = true` in config.toml turns the mode on; the flag's absence does not turn
    /// it off, and `TABSHELL_SCREEN_READER=0` does.
    @Test func theConfigFileTurnsTheModeOn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-config-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tabshell"), withIntermediateDirectories: true)
        try "# read by the screen-reader end-to-end test\nscreen_reader = true\n".write(
            to: folder.appendingPathComponent("tabshell/config.toml"), atomically: true, encoding: .utf8)
        let s = try Self.launch("", environment: ["XDG_CONFIG_HOME": folder.path])
        try Self.waitForCursor(s, "the mode from config.toml") { lines, c in
            c.visible && lines.count > 23 && lines[23].hasPrefix("Inbox tab") && Self.line(lines, c).dropFirst(c.column).hasPrefix("> ")
        }
        let t = try Self.launch("", environment: ["XDG_CONFIG_HOME": folder.path, "TABSHELL_SCREEN_READER": "0"])
        try t.waitFor(text: "Request 6")
        try Self.waitForCursor(t, "the mode off by the environment") { lines, c in !c.visible && !lines.joined().contains("(selected)") }
    }

    /// scripts/speak-screen, the reader docs/accessibility.md tries the mode with (espeak-ng
    /// speaks what it prints): it says each announcement and the row under the cursor as the
    /// selection moves, from nothing but tmux's screen and cursor.
    @Test func theSpeakingScriptSaysTheAnnouncementsAndTheSelectedRow() throws {
        let s = try Self.launch()
        try Self.waitForCursor(s, "the Inbox") { lines, cursor in lines.count > 23 && lines[23].hasPrefix("Inbox tab") && cursor.visible }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let transcript = s.workDirectory.appendingPathComponent("spoken.txt")
        let reader = try ChildProcess.spawn(
            "/bin/bash", arguments: [root.appendingPathComponent("scripts/speak-screen").path, "-L", s.socket, "--silent"],
            environment: ["PATH": "/usr/local/bin:/usr/bin:/bin"], outputPath: transcript.path)
        defer { _ = reader.killAndWait() }
        // Each line is waited for: the script says the announcement and the row under the
        // cursor in turn, so one may be written a moment after the other.
        func waitForSpoken(_ what: String, _ said: ([String]) -> Bool) throws -> [String] {
            let deadline = Date().addingTimeInterval(10)
            var spoken: [String] = []
            while Date() < deadline {
                spoken = ((try? String(contentsOf: transcript, encoding: .utf8)) ?? "").components(separatedBy: "\n")
                if said(spoken) { return spoken }
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw HarnessError("never said \(what); said:\n\(spoken.joined(separator: "\n"))")
        }
        func waitForSpoken(_ line: String) throws -> [String] { try waitForSpoken("\"\(line)\"") { $0.contains(line) } }
        _ = try waitForSpoken("announce: Inbox tab, 6 requests, 6 pending.")
        _ = try waitForSpoken("the selected request") { $0.contains { $0.hasPrefix("cursor: selected: pending Request") } }
        try s.press("3")
        _ = try waitForSpoken("announce: History tab, 6 records, All.")
        try s.press("Down")
        let spoken = try waitForSpoken("cursor: selected: Barcode CODE-5 (Text) - now")
        #expect(spoken.contains("cursor: selected: Barcode CODE-6 (Text) - now"))
    }

    /// `tabshell serve`: a session asks for the mode with SSH's SetEnv, which the server passes
    /// on as it does the locale, and the served app comes up with the cursor on the selection.
    @Test func aServedSessionAsksForTheModeWithSetEnv() throws {
        let server = try ServeEndToEndTests.Server(demo: true)
        let ssh = server.ssh(nil).replacingOccurrences(
            of: "-o SetEnv=LC_ALL=C.UTF-8", with: "-o 'SetEnv=LC_ALL=C.UTF-8 TABSHELL_SCREEN_READER=1'")
        let s = try TmuxSession("\(TmuxSession.survivesKeyboardSignals) \(ssh) </dev/tty & \(TmuxSession.waitForApp) echo \"[app exit $code]\"")
        let (lines, cursor) = try Self.waitForCursor(s, "the served app in screen-reader mode", timeout: 30) { lines, cursor in
            cursor.visible && lines.count > 23 && lines[23].hasPrefix("Inbox tab")
                && Self.line(lines, cursor).dropFirst(cursor.column).hasPrefix("> ")
        }
        #expect(lines.contains { $0.contains("Inbox, ") && $0.contains("(selected)") })
        try s.press("Down")
        try Self.waitForCursor(s, "the served cursor one row down") { lines, c in
            c.row == cursor.row + 1 && Self.line(lines, c).dropFirst(c.column).hasPrefix("> ")
        }
    }
}
