import PhotoPreview
import Testing

/// Answers as terminals send them (ESC written as \u{1B}).
@Suite struct TerminalRepliesTests {
    static func parse(_ text: String) -> TerminalReplies { TerminalReplies.parse(Array(text.utf8)) }

    @Test func theQueryAsksForEverythingAndEndsWithPrimaryAttributes() {
        let query = TerminalQuery.all
        #expect(query.hasPrefix("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"))
        #expect(query.contains("\u{1B}[>0q"))
        #expect(query.contains("\u{1B}[>c"))
        #expect(query.contains("\u{1B}[16t"))
        #expect(query.hasSuffix("\u{1B}[c"))
        #expect(TerminalQuery.bytes == Array(query.utf8))
    }

    /// xterm started as a VT340 (`xterm -ti vt340`), which lists sixel (4).
    @Test func xtermWithSixel() {
        let replies = Self.parse("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[>41;379;0c\u{1B}[6;17;8t\u{1B}[?63;1;2;4;6;9;15;22;29c")
        #expect(replies.terminalVersion == "XTerm(379)")
        #expect(replies.secondaryAttributes == [41, 379, 0])
        #expect(replies.cellPixelSize == CellPixelSize(width: 8, height: 17))
        #expect(replies.primaryAttributes == [63, 1, 2, 4, 6, 9, 15, 22, 29])
        #expect(replies.advertisesSixel)
        #expect(!replies.kittyGraphics)
        #expect(!replies.fromMultiplexer)
        #expect(replies.isComplete)
        #expect(replies.unrelatedBytes.isEmpty)
    }

    @Test func kitty() {
        let replies = Self.parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.32.2)\u{1B}\\\u{1B}[>1;4000;32c\u{1B}[6;22;11t\u{1B}[?62;c")
        #expect(replies.kittyGraphics)
        #expect(replies.terminalVersion == "kitty(0.32.2)")
        #expect(replies.primaryAttributes == [62])
        #expect(!replies.advertisesSixel)
        #expect(replies.cellPixelSize == CellPixelSize(width: 11, height: 22))
    }

    @Test func kittyRefusingTheQueryIsNoKitty() {
        let replies = Self.parse("\u{1B}_Gi=31;ENOTSUPPORTED:unsupported transmission\u{1B}\\\u{1B}[?62;c")
        #expect(!replies.kittyGraphics)
        #expect(replies.isComplete)
    }

    /// tmux 3.3 answers for itself: its own DA2 (84 = 'T') and name, no graphics.
    @Test func tmux() {
        let replies = Self.parse("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[>84;0;0c\u{1B}[?1;2c")
        #expect(replies.fromMultiplexer)
        #expect(replies.terminalVersion == "tmux 3.3a")
        #expect(replies.primaryAttributes == [1, 2])
        #expect(!replies.advertisesSixel)
    }

    @Test func gnuScreenIsAMultiplexerToo() {
        #expect(Self.parse("\u{1B}[>83;40900;0c\u{1B}[?1;2c").fromMultiplexer)
    }

    /// The Linux console answers only DA1, as a VT102.
    @Test func aTerminalWithoutGraphics() {
        let replies = Self.parse("\u{1B}[?6c")
        #expect(replies.primaryAttributes == [6])
        #expect(replies.terminalVersion == nil)
        #expect(replies.secondaryAttributes == nil)
        #expect(!replies.kittyGraphics)
        #expect(!replies.advertisesSixel)
        #expect(replies.isComplete)
    }

    @Test func iTerm2AndWezTermNameThemselves() {
        #expect(Self.parse("\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[?62;4c").supportsITerm2Images)
        #expect(Self.parse("\u{1B}P>|WezTerm 20240203-110809-5046fc22\u{1B}\\\u{1B}[?65;4;6;18;22c").supportsITerm2Images)
        #expect(!Self.parse("\u{1B}P>|XTerm(379)\u{1B}\\").supportsITerm2Images)
    }

    @Test func nothingAnsweredIsIncomplete() {
        let replies = Self.parse("")
        #expect(!replies.isComplete)
        #expect(replies == TerminalReplies())
    }

    @Test func keysTypedMeanwhileAreKeptInOrder() {
        let replies = Self.parse("j\u{1B}[Ak\u{1B}[?62;4c\u{1B}x")
        #expect(replies.primaryAttributes == [62, 4])
        #expect(replies.unrelatedBytes == Array("j\u{1B}[Ak\u{1B}x".utf8))
    }

    @Test func aCutOffAnswerIsNotTakenForOne() {
        let replies = Self.parse("\u{1B}[?62;4")
        #expect(!replies.isComplete)
        #expect(replies.unrelatedBytes == Array("\u{1B}[?62;4".utf8))
        #expect(!Self.parse("\u{1B}_Gi=31;OK").kittyGraphics)
    }

    @Test func garbageDoesNotCrash() {
        var random = SplitMix(seed: 3)
        for _ in 0..<200 {
            let bytes = random.bytes(Int(random.next() % 64)).map { $0 % 4 == 0 ? 0x1B : $0 }
            _ = TerminalReplies.parse(bytes)
        }
        #expect(Self.parse("\u{1B}[?99999999999999999999c").primaryAttributes == nil)
        #expect(Self.parse("\u{1B}[6;0;0t").cellPixelSize == nil)
    }
}
