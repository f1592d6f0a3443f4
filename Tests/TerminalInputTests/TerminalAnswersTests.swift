import Domain
import TabShell
import Testing

@testable import TerminalInput

/// The terminal's answers to `TerminalQuery`, as each terminal sends them (ESC written as
/// \u{1B}; from the terminals' own sources and captures), through the same decoder as the keys:
/// every answer is one `.reply`, keys typed in between stay keys, in order.
@Suite struct TerminalAnswersTests {
    /// Decodes `text` and takes every reply into answers; the keys that came with them.
    static func answers(_ text: String) -> (answers: TerminalAnswers, keys: [Key]) {
        var decoder = InputDecoder()
        var answers = TerminalAnswers()
        var keys: [Key] = []
        for event in decoder.feed(text) + decoder.timeOut() {
            switch event {
            case let .reply(reply): answers.take(reply)
            case let .key(key): keys.append(key)
            case .click, .wheel: break
            }
        }
        return (answers, keys)
    }

    @Test func theQueryAsksEverythingAndEndsWithPrimaryAttributes() {
        let query = TerminalQuery.text
        #expect(query.hasPrefix("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"), "the kitty graphics query first")
        #expect(query.contains("\u{1B}[>q"), "XTVERSION")
        #expect(query.contains("\u{1B}[>c"), "secondary device attributes")
        #expect(query.contains("\u{1B}[16t"), "the cell size in pixels")
        #expect(query.hasSuffix("\u{1B}[c"), "primary device attributes last: every terminal answers it, last")
    }

    /// `xterm -ti vt340`: a VT340 lists sixel (4) in its primary attributes.
    @Test func xtermAsAVT340() {
        let (answers, keys) = Self.answers("\u{1B}P>|XTerm(390)\u{1B}\\\u{1B}[>19;390;0c\u{1B}[6;17;8t\u{1B}[?63;1;2;4;6;9;15;16;22;28c")
        #expect(answers.terminalVersion == "XTerm(390)")
        #expect(answers.secondaryAttributes == [19, 390, 0])
        #expect(answers.cellPixels == CellPixels(width: 8, height: 17))
        #expect(answers.primaryAttributes == [63, 1, 2, 4, 6, 9, 15, 16, 22, 28])
        #expect(answers.listsSixel && answers.isComplete)
        #expect(!answers.kittyGraphics && !answers.fromMultiplexer && !answers.namesITerm2Images)
        #expect(keys.isEmpty)
    }

    /// Plain xterm (VT420 by default): no 4, so no sixel.
    @Test func xtermWithoutSixel() {
        let (answers, _) = Self.answers("\u{1B}P>|XTerm(390)\u{1B}\\\u{1B}[>41;390;0c\u{1B}[6;17;8t\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c")
        #expect(answers.isComplete && !answers.listsSixel)
    }

    @Test func kitty() {
        let (answers, _) = Self.answers("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[>1;4000;35c\u{1B}[6;22;11t\u{1B}[?62;c")
        #expect(answers.kittyGraphics)
        #expect(answers.terminalVersion == "kitty(0.35.2)")
        #expect(answers.primaryAttributes == [62], "kitty ends its list with an empty parameter")
        #expect(answers.cellPixels == CellPixels(width: 11, height: 22))
        #expect(!answers.listsSixel)
    }

    @Test func kittyRefusingTheQueryIsNoKitty() {
        let (answers, _) = Self.answers("\u{1B}_Gi=31;ENOTSUPPORTED:unsupported transmission\u{1B}\\\u{1B}[?62;c")
        #expect(!answers.kittyGraphics && answers.isComplete)
        var other = TerminalAnswers()
        #expect(!take("\u{1B}_Gi=7;OK\u{1B}\\", into: &other), "an answer for another image id is not ours")
        #expect(!other.kittyGraphics)
    }

    /// WezTerm leaves kitty graphics off by default; it names itself and lists sixel.
    @Test func wezTerm() {
        let (answers, _) = Self.answers("\u{1B}P>|WezTerm 20240203-110809-5046fc22\u{1B}\\\u{1B}[>1;277;0c\u{1B}[6;19;9t\u{1B}[?65;4;6;18;22c")
        #expect(answers.namesITerm2Images && answers.listsSixel && !answers.kittyGraphics)
        #expect(answers.cellPixels == CellPixels(width: 9, height: 19))
    }

    @Test func iTerm2() {
        let (answers, _) = Self.answers("\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[>0;95;0c\u{1B}[6;32;14t\u{1B}[?62;4c")
        #expect(answers.namesITerm2Images && answers.terminalVersion == "iTerm2 3.5.0")
        #expect(answers.listsSixel)
    }

    /// foot: sixel (4) in DA1, its name in XTVERSION; no kitty, no iTerm2.
    @Test func foot() {
        let (answers, _) = Self.answers("\u{1B}P>|foot(1.16.2)\u{1B}\\\u{1B}[>1;011602;0c\u{1B}[6;20;10t\u{1B}[?62;4;22;28c")
        #expect(answers.listsSixel && !answers.namesITerm2Images && !answers.kittyGraphics)
        #expect(answers.terminalVersion == "foot(1.16.2)")
        #expect(answers.secondaryAttributes == [1, 11602, 0])
    }

    /// mlterm answers DA1 with sixel and ignores XTVERSION.
    @Test func mlterm() {
        let (answers, _) = Self.answers("\u{1B}[>24;279;0c\u{1B}[6;16;8t\u{1B}[?63;1;2;3;4;7;29c")
        #expect(answers.listsSixel && answers.terminalVersion == nil)
        #expect(answers.cellPixels == CellPixels(width: 8, height: 16))
    }

    /// tmux answers for itself: its DA2 (84 = 'T'), its name, no kitty (it swallows APC).
    @Test func tmux() {
        let (answers, _) = Self.answers("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[>84;0;0c\u{1B}[?1;2c")
        #expect(answers.fromMultiplexer && answers.terminalVersion == "tmux 3.3a")
        #expect(answers.primaryAttributes == [1, 2] && !answers.listsSixel)
        // tmux 3.4 built with sixel lists it: tmux draws sixel images itself.
        #expect(Self.answers("\u{1B}P>|tmux 3.4\u{1B}\\\u{1B}[>84;0;0c\u{1B}[?1;2;4c").answers.listsSixel)
        // GNU screen's DA2 is 83.
        #expect(Self.answers("\u{1B}[>83;40900;0c\u{1B}[?1;2c").answers.fromMultiplexer)
    }

    /// The Linux console answers only DA1, as a VT102.
    @Test func aTerminalThatAnswersOnlyPrimaryAttributes() {
        let (answers, _) = Self.answers("\u{1B}[?6c")
        #expect(answers == TerminalAnswers(primaryAttributes: [6]))
        #expect(answers.isComplete && !answers.listsSixel)
    }

    @Test func keysTypedWhileTheAnswersArriveStayKeysInOrder() {
        let (answers, keys) = Self.answers("j\u{1B}P>|foot(1.16.2)\u{1B}\\\u{1B}[Ak\u{1B}[6;20;10t\r\u{1B}[?62;4;22;28cx")
        #expect(answers.isComplete && answers.listsSixel && answers.cellPixels != nil)
        #expect(keys == [.character("j"), .up, .character("k"), .enter, .character("x")])
    }

    @Test func nothingAnsweredIsIncomplete() {
        #expect(!Self.answers("").answers.isComplete)
        #expect(!Self.answers("\u{1B}P>|XTerm(390)\u{1B}\\").answers.isComplete, "DA1 says the answers are over")
    }

    @Test func unrelatedRepliesAndGarbageChangeNothing() {
        var answers = TerminalAnswers()
        #expect(!take("\u{1B}]10;rgb:0000/0000/0000\u{7}", into: &answers), "an OSC colour report (the foreground's; 11, the background's, is asked)")
        #expect(!take("\u{1B}P1$r0m\u{1B}\\", into: &answers), "a DECRQSS answer")
        #expect(!take("\u{1B}[?2004;1$y", into: &answers), "a mode report")
        #expect(take("\u{1B}[6;0;0t", into: &answers), "the cell size report, with sizes that cannot be")
        #expect(answers.cellPixels == nil)
        #expect(!take("\u{1B}[8;24;80t", into: &answers), "the window size in cells is not the cell size")
        #expect(!take("", into: &answers))
        #expect(!take("\u{1B}", into: &answers))
        #expect(answers == TerminalAnswers())
        #expect(take("\u{1B}P>|\u{7}evil\u{1B}[31m\u{1B}\\", into: &answers))
        #expect(answers.terminalVersion == "evil[31m", "only printable ASCII of a name is kept")
    }

    /// `answers.take(reply)`, outside `#expect` (which cannot call a mutating method).
    private func take(_ reply: String, into answers: inout TerminalAnswers) -> Bool {
        answers.take(reply)
    }

    @Test func theCellSizeReportIsAReplyNotAKey() {
        var decoder = InputDecoder()
        #expect(decoder.feed("\u{1B}[6;20;10t") == [.reply("\u{1B}[6;20;10t")])
    }
}
