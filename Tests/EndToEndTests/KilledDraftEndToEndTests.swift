import Foundation
import TestSupport
import Testing

/// What is typed is in the draft whenever the process dies: the real binary in
/// tmux, text typed, SIGKILL the moment the screen shows it (no signal handler, no exit path
/// runs), and the next start offers the text back. Drafts once saved typed text a second after
/// the first key, so a kill in that second lost it.
@Suite(.serialized, .tags(.e2e))
struct KilledDraftEndToEndTests {
    @Test(arguments: [("p", "/tmp/x/shelf-three.png", "a typed photo path"), ("n", "milk and eggs", "milk and eggs")])
    func textTypedJustBeforeAKillIsOfferedBack(kindKey: String, text: String, summary: String) throws {
        let home = DraftsKeptEndToEndTests.dataHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        try s.waitFor(text: "[ Inbox")
        try s.press("2", kindKey)
        try s.waitFor(text: "Capture · ")
        try s.type(text)
        try s.waitFor(text: text)
        kill(try TabShellEndToEndTests.appPID(s), SIGKILL)
        try s.waitFor(text: "[app exit")

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": home.path])
        let offer = try t.waitFor(text: "Resume the unfinished capture?")
        #expect(offer.contains(summary), "\(offer)")
        try t.press("r")
        try t.waitFor(text: text)
        try t.press("Escape")
        try t.waitFor(text: "Discard this capture?")
        try t.press("y")
        try t.waitFor(text: "[ Inbox")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
    }
}
