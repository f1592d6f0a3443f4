import Domain
import Foundation
import TestSupport
import Testing

/// The graphics questions are asked at start and never waited for: on the real binary in
/// a pseudo-terminal the test plays (`FakeTerminal`), the first frame comes right after the
/// questions from a terminal that answers nothing, keys act, and answers that come later —
/// among keys, or while a photo is on screen in blocks — take effect when they come.
@Suite(.serialized, .tags(.e2e))
struct TerminalAnswersEndToEndTests {
    static func contains(_ bytes: [UInt8], _ text: String) -> Bool { bytes.firstRange(of: Array(text.utf8)) != nil }

    static func index(of text: String, in bytes: [UInt8]) -> Int? { bytes.firstRange(of: Array(text.utf8))?.lowerBound }

    /// xterm as a VT340's answers, cut in two: XTVERSION and DA2, then the cell size and DA1.
    static let sixelFirstHalf = "\u{1B}P>|XTerm(390)\u{1B}\\\u{1B}[>41;390;0c"
    static let sixelSecondHalf = "\u{1B}[6;20;10t\u{1B}[?63;1;2;4;6;9;15;22;29c"

    @Test func aSilentTerminalGetsTheFirstFrameAndKeysAct() throws {
        let t = try FakeTerminal(answers: .silent, environment: ["NO_COLOR": ""])
        let first = try t.waitFor("the first frame") { Self.contains($0, "Inbox") && Self.contains($0, "Settings") }
        // The questions went out first, and the frame followed them with no answer in between:
        // the terminal here never answers.
        let asked = try #require(Self.index(of: FakeTerminal.queryEnd, in: first), "the graphics questions were asked")
        let drawn = try #require(Self.index(of: "Inbox", in: first))
        #expect(asked < drawn, "the questions come before the frame")
        let mark = t.mark
        t.type("4")
        try t.waitFor("Settings after a key", since: mark) { Self.contains($0, "[ Settings") }
        try t.waitFor("the setting without an answer") { Self.contains($0, "the terminal did not answer") }
        t.type("q")
        #expect(t.waitForExit() == 0)
    }

    @Test func keysTypedBeforeBetweenAndAfterTheRepliesAllAct() throws {
        let t = try FakeTerminal(answers: .silent, environment: ["NO_COLOR": ""])
        try t.waitFor("the first frame") { Self.contains($0, "Inbox") && Self.contains($0, "Settings") }
        t.settle()
        let mark = t.mark
        // One write, so one read: a key, half the answers, a key, the rest, a key.
        t.type("3" + Self.sixelFirstHalf + "4" + Self.sixelSecondHalf + "1")
        let output = try t.waitFor("History, Settings, then the Inbox", since: mark) { bytes in
            guard let history = Self.index(of: "[ History", in: bytes), let settings = Self.index(of: "[ Settings", in: bytes),
                let inbox = Self.index(of: "[ Inbox", in: bytes)
            else { return false }
            return history < settings && settings < inbox
        }
        t.settle()
        // No byte of the replies was taken for a key: nothing was typed anywhere, no search opened.
        let text = String(decoding: t.output(since: mark), as: UTF8.self)
        #expect(!text.contains("XTerm"), "a reply's text on screen: \(text.debugDescription)")
        #expect(!output.isEmpty)
        let settings = t.mark
        t.type("4")
        try t.waitFor("the setting from the answers", since: settings) { Self.contains($0, "automatic (sixel)") }
        t.type("q")
        #expect(t.waitForExit() == 0)
    }

    @Test func aPhotoInBlocksIsRedrawnAsGraphicsWhenTheAnswerComes() throws {
        let t = try FakeTerminal(answers: .silent, environment: ["NO_COLOR": ""])
        let opened = try GraphicsEndToEndTests.openRecordWithAPhotoInBlocks(t)
        t.settle()
        #expect(!GraphicsEndToEndTests.hasPicture(t.everything), "blocks before any answer")
        let blocks = String(decoding: t.output(since: opened), as: UTF8.self).unicodeScalars.count { (0x2580...0x259F).contains($0.value) }
        #expect(blocks >= 10, "the thumbnail in block characters")
        let answered = t.mark
        t.type(FakeTerminal.Answers.kitty.text)
        try t.waitFor("the kitty picture after the late answer", since: answered) {
            GraphicsEndToEndTests.placements(in: $0).contains { $0.kind == "kitty" }
        }
        // Still the record's detail, and keys act.
        let back = t.mark
        t.type("1")
        try t.waitFor("the Inbox", since: back) { Self.contains($0, "[ Inbox") }
        t.type("q")
        #expect(t.waitForExit() == 0)
    }
}
