import Domain
import Foundation
import SQLiteStorage
import Storage
import TabShell
import TestSupport
import Testing

/// Themes on the real binary in tmux. tmux answers OSC 11 with its window style's
/// background when one is set (and says nothing otherwise), so a white window style is a light
/// terminal to the auto theme. `capture-pane -e` shows the colours drawn as SGR.
@Suite(.serialized, .tags(.e2e))
struct ThemeEndToEndTests {
    /// The screen with its SGR sequences.
    static func colouredScreen(_ s: TmuxSession) throws -> String {
        try s.tmux(["capture-pane", "-e", "-p", "-t", s.name])
    }

    /// Waits until the coloured screen satisfies `condition`.
    @discardableResult
    static func waitForColours(_ s: TmuxSession, _ what: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var last = ""
        while Date() < deadline {
            last = try colouredScreen(s)
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw HarnessError("timed out waiting for \(what); screen was:\n\(last.debugDescription)")
    }

    /// The selected tab: black on cyan (background 46) in the dark theme, white on blue
    /// (background 44) in the light one, as tmux writes SGR.
    static func isDark(_ screen: String) -> Bool { hasBackground(46, screen) && !hasBackground(44, screen) }
    static func isLight(_ screen: String) -> Bool { hasBackground(44, screen) && !hasBackground(46, screen) }
    static func hasBackground(_ sgr: Int, _ screen: String) -> Bool {
        screen.contains("\u{1B}[\(sgr)m") || screen.contains(";\(sgr)m")
    }

    @Test func autoIsLightOnAWhiteBackgroundAndDarkWithoutAnAnswer() throws {
        let light = try TmuxSession.gatedLaunch(environment: ["NO_COLOR": ""])  // swift test sets NO_COLOR=1
        try light.tmux(["set-option", "-g", "window-style", "bg=#ffffff"])
        try light.go()
        try light.waitFor(text: "Settings")
        let lightScreen = try Self.waitForColours(light, "the light theme's selected tab") { Self.isLight($0) }
        #expect(!lightScreen.contains("[36m") && !lightScreen.contains(";36m"), "no cyan text on white")

        let dark = try TmuxSession.gatedLaunch(environment: ["NO_COLOR": ""])  // swift test sets NO_COLOR=1
        try dark.go()
        try dark.waitFor(text: "Settings")
        let darkScreen = try Self.waitForColours(dark, "the dark theme's selected tab (black on cyan)") { Self.isDark($0) }
        #expect(!Self.isLight(darkScreen))
    }

    @Test func settingsThemeRowChangesTheThemeLiveAndIsSaved() throws {
        let s = try TmuxSession.gatedLaunch(environment: ["NO_COLOR": ""])  // swift test sets NO_COLOR=1
        try s.go()
        try s.press("4")
        try s.waitFor("Settings") { $0.contains("[ Settings") && $0.contains("Theme") }
        try s.waitFor(text: "Auto (config)")
        try Self.waitForColours(s, "the dark theme") { Self.isDark($0) }
        // Down to the Theme row (after Colour), then Enter: Auto, Dark, Light.
        let rows = SettingsRow.allCases.firstIndex(of: .theme) ?? 0
        for _ in 0..<rows { try s.press("Down") }
        try s.press("Enter")
        try s.waitFor { $0.contains("Theme") && $0.contains("Auto ") && !$0.contains("Auto (config)") }
        try s.press("Enter", "Enter")
        try s.waitFor(text: "Light")
        let light = try Self.waitForColours(s, "the light theme drawn at once") { Self.isLight($0) }
        #expect(light.contains("48;5;153"), "the selected row in pale blue")
        let database = s.workDirectory.appendingPathComponent("data/tabshell/tabshell.sqlite")
        let deadline = Date().addingTimeInterval(10)
        var saved: Theme?
        while Date() < deadline, saved != .light {
            saved = try? AppDatabase.open(at: database).settings().theme
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(saved == .light, "the choice is stored with the other settings")
    }

    /// COLORFGBG saying a light background: the terminal is not asked for it (no OSC 11 in what
    /// the app writes), and the first frame is already drawn in the light theme (no dark frame
    /// to paint over once an answer comes). With NO_COLOR nothing asks for it either.
    /// OSC 11's question, as the app sends it.
    static let backgroundQuery = "\u{1B}]11;?"

    @Test func colorFGBGAnswersTheBackgroundWithoutAsking() throws {
        let light = try FakeTerminal(answers: .primaryAttributesOnly, environment: ["NO_COLOR": "", "COLORFGBG": "0;15"])
        try light.waitFor("the shell") { GraphicsEndToEndTests.contains($0, "Settings") }
        light.settle()
        let drawn = light.output(since: 0)
        #expect(!GraphicsEndToEndTests.contains(drawn, Self.backgroundQuery), "asked for the background")
        #expect(GraphicsEndToEndTests.contains(drawn, FakeTerminal.queryEnd), "the other questions are asked")
        let text = String(decoding: drawn, as: UTF8.self)
        #expect(Self.hasBackground(44, text) && !Self.hasBackground(46, text), "drawn light from the first frame")
        light.type("q")
        #expect(light.waitForExit() == 0)

        let asking = try FakeTerminal(answers: .primaryAttributesOnly, environment: ["NO_COLOR": ""])
        try asking.waitFor("the shell") { GraphicsEndToEndTests.contains($0, "Settings") }
        #expect(GraphicsEndToEndTests.contains(asking.output(since: 0), Self.backgroundQuery), "without COLORFGBG it is asked")
        asking.type("q")
        #expect(asking.waitForExit() == 0)

        let plain = try FakeTerminal(answers: .primaryAttributesOnly, environment: ["NO_COLOR": "1"])
        try plain.waitFor("the shell") { GraphicsEndToEndTests.contains($0, "Settings") }
        #expect(!GraphicsEndToEndTests.contains(plain.output(since: 0), Self.backgroundQuery), "no colour, no question")
        plain.type("q")
        #expect(plain.waitForExit() == 0)
    }
}

extension TmuxSession {
    /// Waits for a whole settled screen satisfying `condition`.
    @discardableResult
    fileprivate func waitFor(_ condition: (String) -> Bool) throws -> String {
        try waitFor("the screen", condition)
    }

}
