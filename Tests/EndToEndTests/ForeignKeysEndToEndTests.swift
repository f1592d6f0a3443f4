import Domain
import Foundation
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// The app runs under one TERM while other terminals' key sequences are typed: each is read
/// whole, so none turns into Esc + letters. A text field keeps its text, capture stays open,
/// no tab changes and no setting changes.
@Suite(.serialized, .tags(.e2e))
struct ForeignKeysEndToEndTests {
    /// Sequences of rxvt, the Linux console, PuTTY, VT220, xterm with modifiers, modifyOtherKeys
    /// and CSI u reports of Alt keys, and sequences no terminal table knows.
    static let foreign = [
        "\u{1B}[7~", "\u{1B}[8~", "\u{1B}[1~", "\u{1B}[4~", "\u{1B}[[A", "\u{1B}[[E", "\u{1B}[11~", "\u{1B}[2~",
        "\u{1B}[3$", "\u{1B}[7^", "\u{1B}Oa", "\u{1B}[1;5A", "\u{1B}[1;3B", "\u{1B}[15;5~", "\u{1B}[27;3;120~",
        "\u{1B}[120;3u", "\u{1B}[57414u", "\u{1B}[99~", "\u{1B}[1;2;3;4Q", "\u{1B}Oz", "\u{1B}[>0;1u", "\u{1B}]0;title\u{7}",
        "\u{1B}[27;3;113~", "\u{1B}[49;3u", "\u{1B}[1;5H", "\u{1B}[6;5~", "\u{1B}[<0;300;300m",
    ]

    /// The keys that would do something if they were read as Esc, `[`, digits and letters are
    /// all of the above; typed one after another, nothing may happen on any tab.
    static func typeAll(_ s: TmuxSession) throws {
        for sequence in foreign {
            try s.type(sequence)
        }
    }

    @Test func otherTerminalsKeysChangeNoTabAndNoSetting() throws {
        let s = try TabShellEndToEndTests.launch(environment: ["TERM": "xterm-256color"])
        try s.waitFor(text: "[ Inbox")
        for (key, label) in [("1", "[ Inbox"), ("3", "[ History"), ("4", "[ Settings")] {
            try s.press(key)
            let before = try s.waitFor(text: label)
            try Self.typeAll(s)
            try s.type("\u{1B}[1~")  // and once more
            // Keys are read in order: once the help sheet a last `?` opens is up, every key before
            // it has been handled; closed again, the screen shows what they left.
            try s.press("?")
            try s.waitFor(text: "Next tab")
            try s.press("Escape")
            let after = try s.waitForGone(text: "Next tab")
            #expect(after.contains(label), "left \(label):\n\(after)")
            if label == "[ Settings" {
                #expect(Self.settingValues(before) == Self.settingValues(after), "a setting changed:\n\(after)")
            }
        }
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    @Test func aTextFieldKeepsItsTextAndCaptureStaysOpen() throws {
        let s = try TabShellEndToEndTests.launch(environment: ["TERM": "xterm-256color"])
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "EAN-13")
        try s.type("40063813")
        try s.waitFor(text: "40063813")
        try Self.typeAll(s)
        // Keys are read in order: End (rxvt's) and one more digit, once shown after the code,
        // mean every key before them has been handled.
        try s.type("\u{1B}[8~")
        try s.type("3")
        let screen = try s.waitFor(text: "400638133")
        #expect(screen.contains("EAN-13"), "capture closed:\n\(screen)")
        #expect(!screen.contains("[ Inbox"), "capture closed:\n\(screen)")
        // The code is finished and saved as typed.
        try s.type("3931")
        try s.press("Enter")
        try s.waitFor(text: "4006381333931")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.database(in: s).historyCount() == 1)
    }

    @Test func aLoneEscStillClosesAtOnce() throws {
        let s = try TabShellEndToEndTests.launch(environment: ["TERM": "xterm-256color"])
        try s.waitFor(text: "[ Inbox")
        try s.press("2")
        try s.waitFor(text: "Barcode")
        try s.press("Escape")
        try s.waitFor(text: "[ Inbox", timeout: 2)
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    /// The `[on]`/`[off]` and value markers of the Settings screen, in order.
    static func settingValues(_ screen: String) -> [String] {
        screen.split(separator: "\n").compactMap { line in
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { return nil }
            return String(line[open...close])
        }.filter { !$0.contains("Settings") }
    }
}
