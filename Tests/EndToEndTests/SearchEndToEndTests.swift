import Foundation
import TestSupport
import Testing

/// Search through the screen finds what was captured: a batch by one of its line codes, and a
/// Japanese note by a run from its middle.
@Suite(.serialized, .tags(.e2e))
struct SearchEndToEndTests {
    @Test func aBatchsLineCodeAndTheMiddleOfAJapaneseNoteAreFound() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "s")
        try s.waitFor(text: "No scans yet")
        try s.type("4006381333931\r")
        try s.type("96385074\r")
        try s.waitFor(text: "2 scans")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "n")
        try s.waitFor(text: "Capture · Note")
        try s.type("東京の市場で検品")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")

        try s.press("/")
        try s.waitFor(text: "Type to find")
        try s.type("96385074")
        let batch = try s.waitFor(text: "1 record matches")
        #expect(batch.contains("2 codes"), "\(batch)")
        try s.press("C-u")
        try s.type("市場")
        let note = try s.waitFor(text: "東京の市場で検品")
        #expect(note.contains("1 record matches"), "\(note)")
        try s.press("Escape")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }
}
