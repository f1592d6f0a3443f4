import Foundation
import TestSupport
import Testing

/// Copying inside tmux 3.3 with its default `set-clipboard external`: tmux drops the
/// app's OSC 52, so the status line says what to set instead of a bare "Copied"; with
/// `set-clipboard on` the copy lands in tmux's buffer and the note is not there.
@Suite(.serialized, .tags(.e2e))
struct TmuxClipboardEndToEndTests {
    static func launch(setClipboardOn: Bool) throws -> TmuxSession {
        let s = try TmuxSession.gatedLaunch()
        let database = s.workDirectory.appendingPathComponent("data/tabshell/tabshell.sqlite")
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        try WheelAndCopyEndToEndTests.seed(database)
        if setClipboardOn { try s.tmux(["set-option", "-g", "set-clipboard", "on"]) }
        try s.go()
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        try s.waitFor(text: "[ History")
        return s
    }

    @Test func withTmuxsDefaultTheStatusLineSaysWhatToSet() throws {
        let s = try Self.launch(setClipboardOn: false)
        #expect(try s.tmux(["show-options", "-gv", "set-clipboard"]).trimmingCharacters(in: .whitespacesAndNewlines) == "external")
        try s.press("y")
        let screen = try s.waitFor(text: "Copied CODE-40")
        #expect(screen.contains("tmux drops it unless set -g set-clipboard on"))
        #expect((try? s.tmux(["show-buffer"])) ?? "" != "CODE-40", "tmux did drop it: the note is true")
    }

    @Test func withSetClipboardOnTheCopyArrivesAndNothingIsAdded() throws {
        let s = try Self.launch(setClipboardOn: true)
        try s.press("y")
        let screen = try s.waitFor(text: "Copied CODE-40")
        #expect(!screen.contains("tmux drops it"))
        #expect(try WheelAndCopyEndToEndTests.waitForBuffer(s, "CODE-40") == "CODE-40")
    }
}
