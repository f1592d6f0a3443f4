import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import TestSupport
import Testing

/// On the real binary in tmux: the mouse wheel (SGR 1006 reports, as a terminal sends
/// them) scrolls the Inbox and History under the pointer, and `y`/`Y` put a record on the
/// clipboard with OSC 52, which tmux (`set-clipboard on`) takes into its paste buffer.
@Suite(.serialized, .tags(.e2e))
struct WheelAndCopyEndToEndTests {
    static let count = 40

    /// 40 requests and 40 barcode records `CODE-1` … `CODE-40` (the newest, 40, first in History)
    /// and a note with a line break and an escape sequence in it.
    static func seed(_ url: URL, note: String? = nil) throws {
        let db = try AppDatabase.open(at: url)
        let now = Date()
        for index in 1...count {
            _ = try db.addRequest(title: "Request \(index)", body: "Body \(index)", kind: .barcode, now: now)
            _ = try db.commitCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "CODE-\(index)", symbology: .freeText)), now: now)
        }
        if let note { _ = try db.commitCapture(CaptureSubmission(kind: .note, note: note), now: now) }
    }

    /// A session on a seeded database, started once tmux takes OSC 52 into its buffer.
    static func launch(note: String? = nil) throws -> (TmuxSession, database: URL) {
        let s = try TmuxSession.gatedLaunch()
        let database = s.workDirectory.appendingPathComponent("data/tabshell/tabshell.sqlite")
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        try seed(database, note: note)
        try s.tmux(["set-option", "-g", "set-clipboard", "on"])
        return (s, database)
    }

    /// One step of the wheel at a zero-based cell, as a terminal in SGR mode (1006) reports it.
    static func wheel(_ s: TmuxSession, down: Bool, row: Int, column: Int) throws {
        try s.tmux(["send-keys", "-t", s.name, "-l", "\u{1b}[<\(down ? 65 : 64);\(column + 1);\(row + 1)M"])
    }

    /// The tmux paste buffer tmux made from the app's OSC 52, once it holds `expected`.
    static func waitForBuffer(_ s: TmuxSession, _ expected: String, timeout: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? s.tmux(["show-buffer"])) ?? ""
            if last == expected { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return last
    }

    @Test func theWheelScrollsTheInboxAndHistoryUnderThePointer() throws {
        let (s, _) = try Self.launch()
        try s.go()
        try s.waitFor(text: "1/40")
        for _ in 0..<25 { try Self.wheel(s, down: true, row: 6, column: 10) }
        try s.waitFor(text: "26/40")
        // Over the tab bar (the last row) the wheel moves nothing; the next step over the list does one.
        try Self.wheel(s, down: true, row: 23, column: 10)
        try Self.wheel(s, down: true, row: 6, column: 10)
        let inbox = try s.waitFor(text: "27/40")
        #expect(!inbox.contains("28/40"))
        for _ in 0..<2 { try Self.wheel(s, down: false, row: 6, column: 10) }
        try s.waitFor(text: "25/40")

        try s.press("3")
        try s.waitFor(text: "[ History")
        for _ in 0..<30 { try Self.wheel(s, down: true, row: 8, column: 30) }
        try s.waitFor(text: "31/40")
        // The highlighted record is the 31st newest: CODE-10, which y copies.
        try s.press("y")
        try s.waitFor(text: "Copied CODE-10")
        #expect(try Self.waitForBuffer(s, "CODE-10") == "CODE-10")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    @Test func yAndShiftYCopyARecordWithOSC52ThroughTmux() throws {
        let note = "Shelf B\u{1B}]0;PWNED\u{07}\nsecond line"
        let (s, database) = try Self.launch(note: note)
        let output = s.workDirectory.appendingPathComponent("pty-output.bin")
        try s.recordOutput(to: output)
        try s.go()
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        try s.waitFor(text: "[ History")

        // The note, newest: its text whole in the clipboard, a printable preview on the status line.
        try s.press("y")
        let copied = try s.waitFor(text: "Copied Shelf B")
        #expect(!copied.contains("PWNED\u{07}"))
        #expect(try Self.waitForBuffer(s, note) == note, "tmux's buffer holds the note as it is")

        // A code from the record's detail.
        try s.press("Down", "Enter")
        try s.waitFor(text: "Record #40")
        try s.press("y")
        try s.waitFor(text: "Copied CODE-40")
        #expect(try Self.waitForBuffer(s, "CODE-40") == "CODE-40")

        // Y: the export's JSON line, byte for byte what `history export --format jsonl` writes.
        let exported = s.workDirectory.appendingPathComponent("export.jsonl")
        let status = try TmuxSession.spawnAndWait(
            [TmuxSession.binary.path, "history", "export", "--format", "jsonl", "--db", database.path], stdout: exported.path)
        #expect(status == 0)
        let lines = try String(contentsOf: exported, encoding: .utf8).split(separator: "\n").map(String.init)
        let line = try #require(lines.first { $0.contains("\"CODE-40\"") })
        try s.press("Y")
        try s.waitFor(text: "Copied record #40 as JSON")
        #expect(try Self.waitForBuffer(s, line) == line)

        // The bytes the app wrote: OSC 52 for the clipboard `c`, base64, ended by ST; each decodes
        // to what was copied, in order.
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        try s.stopRecording()
        let bytes = try String(decoding: Data(contentsOf: output), as: UTF8.self)
        let payloads = bytes.components(separatedBy: "\u{1B}]52;c;").dropFirst().compactMap { rest in
            rest.range(of: "\u{1B}\\").map { String(rest[..<$0.lowerBound]) }
        }
        let decoded = payloads.compactMap { Data(base64Encoded: $0).map { String(decoding: $0, as: UTF8.self) } }
        #expect(decoded == [note, "CODE-40", line])
        #expect(!bytes.contains("\u{1B}]0;PWNED"), "the note's escape reached the terminal only inside base64")
    }
}
