import Domain
import Foundation
import SQLiteStorage
import Storage
import TabShell
import TestSupport
import Testing

/// Drafts kept, on the real binary in tmux: Done with a code still in the field leaves no
/// draft to resume into a duplicate; a typed photo path, and a photo still being copied in, are
/// asked about before Ctrl-C throws them away and come back at the next start. Each journey ends
/// by quitting and looks at the data folder and the next start afterwards.
@Suite(.serialized, .tags(.e2e))
struct DraftsKeptEndToEndTests {
    static func dataHome() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-e2e-drafts-\(UUID().uuidString)")
    }

    /// Every `draft.json` under the data folder.
    static func drafts(under dataHome: URL) -> [String] {
        let staging = dataHome.appendingPathComponent("tabshell/tabshell.sqlite.files/staging").path
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
        return folders.filter { FileManager.default.fileExists(atPath: staging + "/" + $0 + "/draft.json") }
    }

    @Test(arguments: ["barcode", "batch"])
    func doneWithTheCodeInTheFieldLeavesNoDraft(kind: String) throws {
        let home = Self.dataHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        try s.waitFor(text: "[ Inbox")
        if kind == "batch" {
            try s.press("2", "s")
            try s.waitFor(text: "No scans yet")
            try s.type("96385074\r")
            try s.waitFor(text: "1 scan")
        } else {
            try s.press("2", "b")
            try s.waitFor(text: "Capture · Barcode")
        }
        try s.type("4006381333931")
        try s.press("C-d")
        try s.waitFor(text: "Saved \(kind)")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(Self.drafts(under: home) == [], "no draft is left behind")

        // The next start offers nothing: the keys open a capture, which an offer would hold back.
        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        try t.waitFor(text: "[ Inbox")
        try t.press("2", "b")
        let screen = try t.waitFor(text: "Capture · Barcode")
        #expect(!screen.contains("Resume"))
        try t.press("Escape")
        try t.waitFor(text: "[ Inbox")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
        let db = try AppDatabase.open(at: home.appendingPathComponent("tabshell/tabshell.sqlite"))
        #expect(try db.historyPage(HistoryPageRequest(start: 0, count: 10)).rows.count == 1)
    }

    @Test func aTypedPhotoPathIsAskedAboutAndKept() throws {
        let home = Self.dataHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "p")
        try s.waitFor(text: "Capture · Photos")
        try s.type("/tmp/x/shelf-two.png")
        try s.press("C-c")
        try s.waitFor(text: "Close throws away the typed path.")
        try s.press("C-c")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        let offer = try t.waitFor(text: "Resume the unfinished capture?")
        #expect(offer.contains("a typed photo path"), "\(offer)")
        #expect(!offer.contains("kept on disk"), "no photos, no files: \(offer)")
        try t.press("r")
        try t.waitFor(text: "/tmp/x/shelf-two.png")
        try t.press("Escape")
        try t.waitFor(text: "Discard this capture?")
        try t.press("y")
        try t.waitFor(text: "[ Inbox")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
    }

    @Test func aHangUpKeepsAPhotoAndTheNextTypedPath() throws {
        let home = Self.dataHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        try PhotoCaptureEndToEndTests.png(width: 12, height: 34).write(to: s.workDirectory.appendingPathComponent("p.png"))
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "p")
        try s.waitFor(text: "Capture · Photos")
        try s.type("p.png")
        try s.press("Enter")
        try s.waitFor(text: "12×34")
        try s.type("shelf-two.png")
        try s.waitFor(text: "shelf-two.png")
        kill(try TabShellEndToEndTests.appPID(s), SIGHUP)
        try s.waitFor(text: "[app exit")

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        let offer = try t.waitFor(text: "Resume the unfinished capture?")
        #expect(offer.contains("1 photo, a typed photo path"), "\(offer)")
        try t.press("r")
        let resumed = try t.waitFor(text: "shelf-two.png")
        #expect(resumed.contains("12×34"))
        try t.press("Escape")
        try t.waitFor(text: "Discard this capture?")
        try t.press("y")
        try t.waitFor(text: "[ Inbox")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
    }

    /// Enter and Ctrl-C in one go: the photo is still being copied (or has just arrived) when
    /// Ctrl-C is read. Either way Ctrl-C asks, and the second one keeps it for the next start.
    @Test func enterThenCtrlCAsksAndKeepsThePhoto() throws {
        let home = Self.dataHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        try PhotoCaptureEndToEndTests.png(width: 12, height: 34).write(to: s.workDirectory.appendingPathComponent("shelf one.png"))
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "p")
        try s.waitFor(text: "Capture · Photos")
        try s.type("shelf one.png")
        try s.waitFor(text: "shelf one.png")
        try s.press("Enter", "C-c")
        let asked = try s.waitFor(text: "Discard this capture?")
        #expect(asked.contains("the photo being added") || asked.contains("1 photo"), "\(asked)")
        try s.press("C-c")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        let offer = try t.waitFor(text: "Resume the unfinished capture?")
        #expect(offer.contains("1 photo") != offer.contains("a typed photo path"), "the photo or its path, once: \(offer)")
        try t.press("r")
        try t.waitFor(text: "Capture · Photos")
        try t.waitFor(offer.contains("1 photo") ? "the photo" : "its path") { $0.contains(offer.contains("1 photo") ? "12×34" : "shelf one.png") }
        try t.press("Escape")
        try t.waitFor(text: "Discard this capture?")
        try t.press("y")
        try t.waitFor(text: "[ Inbox")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
    }
}
