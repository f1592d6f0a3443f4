import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import TestSupport
import Testing

/// Data that tries to talk to the terminal: every field that reaches the screen holds escape
/// sequences, C0/C1 controls and bidi overrides. Every byte the app writes to its pty is
/// recorded (tmux pipe-pane) while each screen showing them is visited; none of the
/// data-derived sequences may appear, only their visible placeholders.
@Suite(.serialized, .tags(.e2e))
struct HostileDataEndToEndTests {
    static let osc = "\u{1B}]0;PWNED\u{07}"
    static let sgr = "\u{1B}[31mEVIL"
    static let c1 = "\u{9B}2J"
    static let hostile = "\(osc)|\(sgr)|\(c1)|\r|\u{8}\u{8}|\u{202E}desrever|\u{7}|\u{85}|\u{1B}[?1049l"

    /// Byte patterns that must never reach the terminal: only data could have put them there.
    static let forbidden: [(name: String, bytes: [UInt8])] = [
        ("OSC 0 title (ESC]0;PWNED)", Array("\u{1B}]0;PWNED".utf8)),
        ("SGR red (ESC[31mEVIL)", Array("\u{1B}[31mEVIL".utf8)),
        ("C1 CSI (C2 9B)", [0xC2, 0x9B]),
        ("C1 NEL (C2 85)", [0xC2, 0x85]),
        ("BEL", [0x07]),
        ("RLO U+202E", [0xE2, 0x80, 0xAE]),
        ("raw ESC]", [0x1B, 0x5D]),
    ]

    /// TerminalQuery.backgroundColor, spelled out: the test checks the bytes, not the constant.
    static let backgroundQuestion = "\u{1B}]11;?\u{1B}\\"

    /// `bytes` without any run equal to `pattern`.
    static func removing(_ pattern: [UInt8], from bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, bytes[index..<index + pattern.count].elementsEqual(pattern) {
                index += pattern.count
            } else {
                kept.append(bytes[index])
                index += 1
            }
        }
        return kept
    }

    static func seed(_ url: URL, photo: URL) throws {
        let db = try AppDatabase.open(at: url)
        let now = Date()
        let request = try db.addRequest(title: "Req \(hostile) title", body: "Body \(hostile)\nsecond \(hostile)", kind: .note, now: now)
        _ = try db.addRequest(title: "Other \(osc)", body: sgr, kind: .barcode, now: now)
        _ = try db.commitCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "CODE\(hostile)", symbology: .freeText)), now: now)
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "Note \(hostile)\nline two \(hostile)", requestID: request), now: now)
        let staging = try db.beginStaging()
        let staged = try staging.stage(fileAt: photo.path, originalName: "pic\(hostile).png", maxBytes: 1 << 20)
        _ = try db.commitCapture(CaptureSubmission(kind: .photos, photos: [staged]), staging: staging, now: now)
    }

    @Test func noDataDerivedEscapeReachesThePty() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-hostile-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        let photo = dataHome.appendingPathComponent("seed.png")
        try PhotoCaptureEndToEndTests.png(width: 10, height: 10).write(to: photo)
        try Self.seed(dataHome.appendingPathComponent("tabshell/tabshell.sqlite"), photo: photo)

        let s = try TmuxSession.gatedLaunch(environment: ["XDG_DATA_HOME": dataHome.path])
        // A file whose very name is hostile, for the path completer and the error messages.
        try PhotoCaptureEndToEndTests.png(width: 10, height: 10).write(to: s.workDirectory.appendingPathComponent("zz\(Self.sgr)\u{7}.png"))
        let output = s.workDirectory.appendingPathComponent("pty-output.bin")
        try s.recordOutput(to: output)
        try s.go()

        var screens: [String] = []
        var navigationError: (any Error)?
        do {
            func visit(_ what: String, _ condition: @escaping (String) -> Bool) throws {
                screens.append(try s.waitFor(what, condition))
            }
            try visit("Inbox with the hostile request") { $0.contains("[ Inbox") && $0.contains("PWNED") && $0.contains("Settings") }
            try s.press("Down")
            try visit("second request") { $0.contains("EVIL") }
            try s.press("3")
            try visit("History") { $0.contains("[ History") && $0.contains("CODE") }
            for row in 0..<3 {
                try s.press("Enter")
                try visit("record \(row)") { !$0.contains("[ History") || $0.contains("Back") || $0.contains("Esc") }
                try s.press("Escape")
                // The list, not the detail (whose tab bar says "[ History" too): a Down sent
                // before Esc is read would join it into one sequence and leave the detail open.
                try visit("History again") { ($0.contains("[ History") || $0.contains("[History]")) && !$0.contains("Record #") }  // the bar may be minimized
                try s.press("Down")
            }
            for _ in 0..<3 {
                try s.press("b")
                try visit("browse mode") { $0.contains("[ History") || $0.contains("[History]") }
            }
            try s.press("/")
            try visit("search sheet") { $0.contains("Type to find codes") }
            // Search matches the starts of words (FTS5): "code" finds the hostile barcode record.
            try s.type("code")
            try visit("search results") { $0.contains("CODE") || $0.contains("Note") }
            try s.press("Escape")
            try s.press("4")
            try visit("Settings") { $0.contains("[ Settings") && $0.contains("Require an Inbox request") }
            // Capture: a pasted path full of escapes, then the completer over a hostile file name.
            try s.press("2", "p")
            try visit("photos phase") { $0.contains("Capture · Photos") && !$0.contains("[ Settings") }
            try s.paste("/nonexistent/\(Self.osc)\(Self.sgr)\(Self.c1).png")
            try visit("path error") { $0.contains("✗") && $0.contains("nonexistent") }
            try s.tmux(["send-keys", "-t", s.name, "-N", "80", "BSpace"])
            try s.waitFor("an empty path field") { $0.contains("File [ ") && !$0.contains("nonexistent/") }
            try s.type("zz")
            try s.press("Tab")
            try visit("completed hostile name") { $0.contains("File [zz\u{241B}[31mEVIL\u{2407}.png") }
            try s.press("Enter")
            try visit("staged hostile name") { $0.contains("10×10") && $0.contains("Photos (1 of") }
            try s.press("Escape")
            try s.waitFor("discard question") { $0.contains("Discard this capture?") }
            try s.press("y")
            try visit("back on the tab bar") { $0.contains("[ Settings") }
            try s.press("q")
            try TabShellEndToEndTests.expectTerminalRestored(s)
            #expect(try TabShellEndToEndTests.exitCode(s) == 0)
            try s.stopRecording()
        } catch {
            // The byte check below still runs: an escape that broke the navigation is the finding.
            navigationError = error
            try? s.stopRecording()
            // Stop the app now, so it cannot write into dataHome after the defer removed it.
            if let pid = try? TabShellEndToEndTests.appPID(s) { kill(pid, SIGKILL) }
        }

        // The app's own start-up question for the background colour (OSC 11, theme = auto) is
        // the one ESC ] it writes itself: taken out, exactly, before any data-derived one is sought.
        let bytes = Self.removing(Array(Self.backgroundQuestion.utf8), from: [UInt8](try Data(contentsOf: output)))
        var found: [String] = []
        for pattern in Self.forbidden where Self.contains(bytes, pattern.bytes) { found.append(pattern.name) }
        #expect(found.isEmpty, "data-derived control bytes reached the terminal: \(found)")
        let seen = screens.joined(separator: "\n")
        #expect(seen.contains("PWNED") && seen.contains("EVIL") && seen.contains("desrever"), "the hostile data was actually on screen")
        #expect(seen.contains("\u{241B}"), "escape shown as the visible ␛ placeholder")
        let escapes = bytes.filter { $0 == 0x1B }.count
        if let navigationError { throw navigationError }
        print(
            "hostile data: \(screens.count) screens visited, \(bytes.count) bytes written to the pty, \(escapes) ESC bytes (all from curses), forbidden patterns found: \(found.isEmpty ? "none" : found.joined(separator: ", ")) of \(Self.forbidden.count) checked"
        )
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }
}
