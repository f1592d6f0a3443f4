import Domain
import Foundation
import TestSupport
import Testing

/// The app under every TERM it may meet and under the C and C.UTF-8 locales; TERMs it cannot
/// use are refused with one sentence, before the terminal is touched.
@Suite(.serialized, .tags(.e2e))
struct TermMatrixEndToEndTests {
    static let usable = ["xterm-256color", "xterm", "screen", "tmux-256color", "vt100", "linux"]

    @Test func startsDrawsAndRestoresUnderEachTerm() throws {
        var figures: [String] = []
        for term in Self.usable {
            let start = Date()
            let s = try TabShellEndToEndTests.launch(environment: ["TERM": term])
            try s.waitFor("tab bar under TERM=\(term)") { $0.contains("[ Inbox") && $0.contains("Settings") && $0.contains("History") }
            let drawn = Date().timeIntervalSince(start)
            try s.press("3")
            try s.waitFor("History under TERM=\(term)") { $0.contains("[ History") }
            try s.press("q")
            try TabShellEndToEndTests.expectTerminalRestored(s)
            #expect(try TabShellEndToEndTests.exitCode(s) == 0, "TERM=\(term)")
            figures.append(String(format: "%@ %.2fs", term, drawn))
        }
        print("TERM matrix: tab bar drawn and restored under " + figures.joined(separator: ", "))
    }

    @Test(arguments: ["dumb", "no-such-terminal-xyz"])
    func refusesAnUnusableTerm(term: String) throws {
        let s = try TmuxSession.gatedLaunch(environment: ["TERM": term])
        let output = s.workDirectory.appendingPathComponent("output.bin")
        try s.recordOutput(to: output)
        try s.go()
        try s.waitFor(text: "[app exit")
        try s.stopRecording()
        let code = try TabShellEndToEndTests.exitCode(s)
        #expect(code != 0 && code != nil, "TERM=\(term) must exit non-zero, got \(String(describing: code))")
        let message = try String(contentsOf: s.workDirectory.appendingPathComponent("stderr.txt"), encoding: .utf8)
        #expect(message.contains("TERM=\(term)"), "the refusal names the TERM: \(message)")
        #expect(message.split(separator: "\n").count == 1, "one sentence: \(message)")
        let before = try String(contentsOf: s.workDirectory.appendingPathComponent("stty.before"), encoding: .utf8)
        let after = try String(contentsOf: s.workDirectory.appendingPathComponent("stty.after"), encoding: .utf8)
        #expect(before == after, "stty changed")
        #expect(try s.pane("alternate_on") == "0")
        #expect(try s.pane("cursor_flag") == "1")
        // The only bytes on the tty are the refusal itself and the shell's echo: no escape at all.
        let bytes = try Data(contentsOf: output)
        #expect(!bytes.contains(0x1B), "TERM=\(term): the terminal was sent an escape sequence")
        print("TERM=\(term): refused with exit \(code ?? -1), \(bytes.count) bytes on the tty, no ESC: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    @Test(arguments: ["C", "C.UTF-8"])
    func startsAndQuitsUnderLocale(locale: String) throws {
        let s = try TabShellEndToEndTests.launch(environment: ["LC_ALL": locale, "LANG": locale])
        try s.waitFor("tab bar under LC_ALL=\(locale)") { $0.contains("[ Inbox") && $0.contains("Settings") }
        try s.press("2", "n")
        try s.type("caf\u{E9} ok")
        try s.waitFor("note under LC_ALL=\(locale)") { $0.contains("ok") }
        try s.press("C-d")
        try s.waitFor("back") { $0.contains("[ Inbox") }
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
        print("LC_ALL=\(locale): started, captured a note, quit clean")
    }
}
