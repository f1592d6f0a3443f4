import Domain
import Foundation
import Storage
import TabShell
import TestSupport
import Testing

/// Keys that keep work, on the real binary in tmux: Done takes the code still in the field, Ctrl-C
/// asks before throwing a capture away and keeps the whole draft, Enter on a delete question
/// keeps the record, and keys below the minimum size do nothing unseen. Each journey ends by
/// quitting and reads the database (or the next start's draft offer) afterwards, so what did
/// not happen is proved by a later key that was read after it, never by a pause.
@Suite(.serialized, .tags(.e2e))
struct KeysThatKeepWorkEndToEndTests {
    static func records(in s: TmuxSession) throws -> [HistoryRow] {
        try TabShellEndToEndTests.database(in: s).historyPage(HistoryPageRequest(start: 0, count: 50)).rows
    }

    // MARK: - Done with a code still in the field

    @Test func batchDoneAddsTheCodeStillInTheField() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "s")
        try s.waitFor(text: "No scans yet")
        try s.type("96385074\r")
        try s.waitFor(text: "1 scan")
        // A bad code in the field: Done says why and keeps the capture open.
        try s.type("4006381333932")
        try s.press("C-d")
        try s.waitFor(text: "Bad check digit")
        try s.press("BSpace")
        try s.type("1")
        // A valid code typed without Enter: Done adds it as a scan, then saves.
        try s.press("C-d")
        try s.waitFor(text: "Saved batch")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        let row = try #require(try Self.records(in: s).first)
        #expect(row.kind == .batch)
        #expect(row.batchScans == 2)
        #expect(row.batchCodes == 2)
    }

    @Test func barcodeDoneTakesTheTypedCode() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "Capture · Barcode")
        try s.type("4006381333931")
        try s.press("C-d")
        try s.waitFor(text: "Saved barcode")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try Self.records(in: s).first?.barcode?.value == "4006381333931")
    }

    // MARK: - Ctrl-C in a capture

    @Test func ctrlCAsksFirstEvenUnderDemoAndTheSecondQuits() throws {
        let s = try TabShellEndToEndTests.launch("--demo")
        try s.waitFor(text: "Inbox")
        try s.press("2", "n")
        try s.waitFor(text: "Capture · Note")
        try s.type("milk and eggs")
        try s.press("C-c")
        let asked = try s.waitFor(text: "Discard this capture?")
        #expect(asked.contains("the note"))
        try s.press("n")
        try s.waitForGone(text: "Discard this capture?")
        #expect(try s.screen().contains("milk and eggs"), "Keep editing keeps the text")
        try s.press("C-c")
        try s.waitFor(text: "Discard this capture?")
        try s.press("C-c")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
    }

    @Test func ctrlCInAnEmptyCaptureQuitsAtOnce() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "Capture · Barcode")
        try s.press("C-c")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
    }

    /// 26 letters typed fast, then Ctrl-C twice at once: every letter is read before the first
    /// Ctrl-C (a key now, not a signal that flushes what was typed), and quitting writes the
    /// draft whole, so the next start offers all of it back.
    @Test(arguments: ["note", "barcode"])
    func ctrlCTwiceKeepsEverythingTypedInTheDraft(kind: String) throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-e2e-ctrlc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        try s.waitFor(text: "[ Inbox")
        let typed = kind == "note" ? "abcdefghijklmnopqrstuvwxyz" : "40063813339"
        try s.press("2", kind == "note" ? "n" : "b")
        try s.waitFor(text: kind == "note" ? "Capture · Note" : "Capture · Barcode")
        try s.type(typed)
        try s.press("C-c", "C-c")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        let offer = try t.waitFor(text: "Resume the unfinished capture?")
        #expect(offer.contains(typed), "the draft holds all that was typed: \(offer)")
        try t.press("r")
        try t.waitFor(text: typed)
        try t.press("Escape")
        try t.waitFor(text: "Discard this capture?")
        try t.press("y")
        try t.waitFor(text: "[ Inbox")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
    }

    // MARK: - Enter on a destructive question

    @Test func enterOnDeleteKeepsTheRecordAndYDeletesIt() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        for note in ["first", "second"] {
            try s.press("2", "n")
            try s.waitFor(text: "Capture · Note")
            try s.type(note)
            try s.press("C-d")
            try s.waitFor(text: "Saved note")
        }
        try s.press("3")
        try s.waitFor(text: "second")
        try s.press("d")
        try s.waitFor(text: "Delete record")
        try s.press("Enter")
        try s.waitForGone(text: "Delete record")
        try s.press("j", "d")
        try s.waitFor(text: "Delete record")
        try s.press("y")
        try s.waitForGone(text: "first")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try Self.records(in: s).compactMap(\.note) == ["second"], "Enter kept the record, y deleted the other")
    }

    // MARK: - A list taller than the screen

    /// At 24x8 the picker shows four of its five kinds: moving to the last scrolls it into view
    /// with a mark that more lies above, and Enter takes the kind highlighted.
    @Test func thePickerAt24x8KeepsItsHighlightInView() throws {
        let s = try TabShellEndToEndTests.launch(columns: 24, rows: 8)
        try s.waitFor(text: "Inbox")
        try s.press("2")
        // Each kind's row leads with its key: "› b  Barcode".
        let top = try s.waitFor("the highlight on Barcode") { $0.split(separator: "\n").contains { $0.contains("›") && $0.contains("Barcode") } }
        #expect(top.contains("▼"), "more lies below: \(top)")
        try s.press("Down", "Down", "Down", "Down")
        let bottom = try s.waitFor("the highlight on Batch") { $0.split(separator: "\n").contains { $0.contains("›") && $0.contains("Batch") } }
        #expect(bottom.contains("▲"), "more lies above: \(bottom)")
        #expect(!bottom.contains("Barcode"))
        try s.press("Enter")
        try s.waitFor(text: "No scans yet")
        try s.press("Escape")
        try s.waitFor(text: "Inbox")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    // MARK: - Below the minimum size

    /// While too small, `2 n x Ctrl-D` would open a capture, write a note and save it unseen;
    /// `q` after them quits, and it is read after them, so the empty History proves they did
    /// nothing.
    @Test func keysBelowTheMinimumSizeDoNothing() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.resize(columns: 20, rows: 6)
        try s.waitFor(text: "too small")
        try s.press("2", "n", "x", "C-d", "Enter", "C-l")
        try s.resize(columns: 22, rows: 6)
        try s.waitFor(text: "have 22x6")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
        #expect(try Self.records(in: s).isEmpty, "no key acted while the screen said too small")
    }
}
