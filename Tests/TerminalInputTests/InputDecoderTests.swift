import PropertyBased
import TabShell
import Testing

@testable import TerminalInput

private func decode(_ text: String, timeOut: Bool = true) -> [InputEvent] {
    var decoder = InputDecoder()
    var events = decoder.feed(text)
    if timeOut { events += decoder.timeOut() }
    return events
}

private func keys(_ text: String) -> [Key] {
    decode(text).compactMap { if case let .key(key) = $0 { key } else { nil } }
}

@Suite struct PlainInputTests {
    @Test func printableCharactersAreText() {
        #expect(keys("aZ 7é漢👍") == ["a", "Z", " ", "7", "é", "漢", "👍"].map { .character($0) })
    }

    @Test func controlKeys() {
        #expect(keys("\r\n\t\u{7F}\u{8}") == [.enter, .enter, .tab, .backspace, .backspace])
        #expect(keys("\u{1}\u{4}\u{13}\u{1A}") == [.control("a"), .control("d"), .control("s"), .control("z")])
        #expect(keys("\u{1D}") == [.control("]")], "the GS1 group separator scanners send")
    }

    @Test func otherControlsAndC1AreDropped() {
        #expect(keys("\u{0}\u{85}\u{9B}") == [])
    }
}

@Suite struct EscapeTests {
    @Test func loneEscapeIsEscOnlyAfterTheTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed("\u{1B}") == [])
        #expect(decoder.waiting == .escape)
        #expect(decoder.timeOut() == [.key(.escape)])
        #expect(decoder.waiting == .nothing)
    }

    @Test func escThenAKeyTypedAtOnceIsBothInOrder() {
        // Alt + a key sends the same bytes: it stays what it was with curses, Esc then the key.
        #expect(keys("\u{1B}x") == [.escape, .character("x")])
        #expect(keys("\u{1B}4") == [.escape, .character("4")])
        #expect(keys("\u{1B}\u{7F}") == [.escape, .backspace])
        #expect(keys("\u{1B}\r") == [.escape, .enter])
    }

    @Test func linuxShiftTabIsEscTab() {
        #expect(keys("\u{1B}\t") == [.backTab])
    }

    @Test func escEscIsTwoEscapesOrMetaPlusAKey() {
        #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
        #expect(keys("\u{1B}\u{1B}[A") == [.modified(.up, .alt)])
    }

    @Test func escThenAControlKeyIsBoth() {
        #expect(keys("\u{1B}\u{4}") == [.escape, .control("d")])
    }

    @Test func halfSequencesTimeOutAsTheirCharactersOrNothing() {
        #expect(keys("\u{1B}[") == [.escape, .character("[")])
        #expect(keys("\u{1B}O") == [.escape, .character("O")])
        #expect(keys("\u{1B}[1;5") == [])
        #expect(decode("\u{1B}[1;5", timeOut: false) == [])
    }
}

@Suite struct SequenceTests {
    @Test func homeAndEndOfEveryFamily() {
        for home in ["\u{1B}[H", "\u{1B}OH", "\u{1B}[1~", "\u{1B}[7~"] { #expect(keys(home) == [.home], "\(home.debugDescription)") }
        for end in ["\u{1B}[F", "\u{1B}OF", "\u{1B}[4~", "\u{1B}[8~"] { #expect(keys(end) == [.end], "\(end.debugDescription)") }
    }

    @Test func modifiedKeys() {
        #expect(keys("\u{1B}[1;5A") == [.modified(.up, .control)])
        #expect(keys("\u{1B}[1;2B") == [.modified(.down, .shift)])
        #expect(keys("\u{1B}[1;3C") == [.modified(.right, .alt)])
        #expect(keys("\u{1B}[1;6D") == [.modified(.left, [.control, .shift])])
        #expect(keys("\u{1B}[3;5~") == [.modified(.delete, .control)])
        #expect(keys("\u{1B}[15;2~") == [.modified(.function(5), .shift)])
        #expect(keys("\u{1B}[1;5P") == [.modified(.function(1), .control)])
        #expect(keys("\u{1B}O5A") == [.modified(.up, .control)])
    }

    @Test func rxvtModifiedKeys() {
        #expect(keys("\u{1B}[a") == [.modified(.up, .shift)])
        #expect(keys("\u{1B}Od") == [.modified(.left, .control)])
        #expect(keys("\u{1B}[3^") == [.modified(.delete, .control)])
        #expect(keys("\u{1B}[3$") == [.modified(.delete, .shift)])
        #expect(keys("\u{1B}[7@") == [.modified(.home, [.control, .shift])])
    }

    @Test func linuxConsoleFunctionKeys() {
        #expect(keys("\u{1B}[[A\u{1B}[[B\u{1B}[[C\u{1B}[[D\u{1B}[[E") == (1...5).map { .function($0) })
        #expect(keys("\u{1B}[[Z") == [])
    }

    @Test func applicationKeypad() {
        #expect(keys("\u{1B}OM") == [.enter])
        #expect(keys("\u{1B}Op\u{1B}Oy\u{1B}Ok") == [.character("0"), .character("9"), .character("+")])
    }

    @Test func modifyOtherKeysReportsStandForTheirKey() {
        #expect(keys("\u{1B}[27;5;100~") == [.control("d")])
        #expect(keys("\u{1B}[27;5;68~") == [.control("d")])
        #expect(keys("\u{1B}[27;2;13~") == [.modified(.enter, .shift)])
        #expect(keys("\u{1B}[27;3;120~") == [.alt("x")])
        #expect(keys("\u{1B}[27;2;33~") == [.character("!")])
        #expect(keys("\u{1B}[27;5;9~") == [.modified(.tab, .control)])
        #expect(keys("\u{1B}[27;2;9~") == [.backTab])
    }

    @Test func csiUReportsStandForTheirKey() {
        #expect(keys("\u{1B}[100;5u") == [.control("d")], "CSI-u Ctrl-D is Done")
        #expect(keys("\u{1B}[13u") == [.enter])
        #expect(keys("\u{1B}[27u") == [.escape])
        #expect(keys("\u{1B}[127;3u") == [.modified(.backspace, .alt)])
        #expect(keys("\u{1B}[97;2u") == [.character("A")])
        #expect(keys("\u{1B}[49:33;2u") == [.character("!")], "kitty's shifted key")
        #expect(keys("\u{1B}[115;5u") == [.control("s")])
        #expect(keys("\u{1B}[57414u") == [], "kitty functional keys in private use are dropped")
    }

    @Test func unknownSequencesDoNothingVisiblyNothing() {
        for unknown in [
            "\u{1B}[99~", "\u{1B}[1;5X", "\u{1B}[E", "\u{1B}[I", "\u{1B}[O", "\u{1B}[>1;2;3q", "\u{1B}[5 q", "\u{1B}Oz",
            "\u{1B}[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32~",
        ] {
            let events = decode(unknown)
            #expect(events.allSatisfy { if case .reply = $0 { true } else { false } }, "\(unknown.debugDescription) gave \(events)")
        }
    }

    @Test func anOverlongSequenceIsConsumedAndDropped() {
        let long = "\u{1B}[" + String(repeating: "1;", count: 200) + "A" + "x"
        #expect(keys(long) == [.character("x")])
    }

    @Test func aControlCharacterInsideASequenceEndsIt() {
        #expect(keys("\u{1B}[1;\u{4}x") == [.control("d"), .character("x")])
        #expect(keys("\u{1B}[1\u{1B}[A") == [.up])
    }

    @Test func stringControlsAreConsumedWholeAndReportedAsReplies() {
        #expect(decode("\u{1B}]11;rgb:0000/0000/0000\u{7}x") == [.reply("\u{1B}]11;rgb:0000/0000/0000\u{7}"), .key(.character("x"))])
        #expect(decode("\u{1B}_Gi=31;OK\u{1B}\\x") == [.reply("\u{1B}_Gi=31;OK\u{1B}\\"), .key(.character("x"))])
        #expect(decode("\u{1B}P>|xterm(390)\u{1B}\\") == [.reply("\u{1B}P>|xterm(390)\u{1B}\\")])
        #expect(decode("\u{1B}[?62;4;22c") == [.reply("\u{1B}[?62;4;22c")])
    }
}

@Suite struct MouseTests {
    @Test func sgrReports() {
        #expect(decode("\u{1B}[<0;10;3M") == [.click(row: 2, column: 9)])
        #expect(decode("\u{1B}[<0;10;3m") == [], "release")
        #expect(decode("\u{1B}[<64;1;1M") == [.wheel(WheelTurn(.up, row: 0, column: 0))])
        #expect(decode("\u{1B}[<65;12;7M") == [.wheel(WheelTurn(.down, row: 6, column: 11))])
        #expect(decode("\u{1B}[<32;5;5M") == [], "drag")
        #expect(decode("\u{1B}[<2;5;5M") == [], "right button")
        #expect(decode("\u{1B}[<16;4;2M") == [.click(row: 1, column: 3)], "Ctrl-click is a click")
    }

    @Test func x10Reports() {
        #expect(decode("\u{1B}[M" + "\u{20}\u{2A}\u{23}") == [.click(row: 2, column: 9)])
        #expect(decode("\u{1B}[M" + "\u{23}\u{2A}\u{23}") == [], "release")
        #expect(decode("\u{1B}[M" + "\u{60}!!") == [.wheel(WheelTurn(.up, row: 0, column: 0))])
    }
}

@Suite struct PasteTests {
    private func paste(_ text: String) -> [InputEvent] { decode("\u{1B}[200~" + text + "\u{1B}[201~") }

    @Test func markersCollectTextAsOnePasteKey() {
        #expect(paste("hello world") == [.key(.paste("hello world"))])
    }

    @Test func lineBreaksBecomeNewlinesAndTabsStay() {
        #expect(paste("a\r\nb\rc\nd\te") == [.key(.paste("a\nb\nc\nd\te"))])
    }

    @Test func controlsAndEscapeSequencesInsideAPasteAreDropped() {
        // A lone ESC is a control and goes; the letter after it is text and stays.
        #expect(paste("a\u{4}b\u{1B}[Ac\u{1B}[1;5Dd\u{1B}xe") == [.key(.paste("abcdxe"))])
    }

    @Test func emptyPasteAndStrayEndMarkerYieldNothing() {
        #expect(paste("") == [])
        #expect(decode("\u{1B}[201~") == [])
    }

    @Test func pasteIsCappedAtOneMebibyte() {
        let events = paste(String(repeating: "x", count: PasteBuffer.byteLimit + 10) + "tail")
        guard case let .key(.paste(text))? = events.first else {
            Issue.record("no paste")
            return
        }
        #expect(text.utf8.count == PasteBuffer.byteLimit)
        #expect(!text.hasSuffix("tail"))
    }

    @Test func aRepeatedBeginMarkerKeepsWhatCameSoFar() {
        #expect(paste("ab\u{1B}[200~cd") == [.key(.paste("abcd"))])
    }

    @Test func finishPasteDeliversWhatArrivedWhenTheEndMarkerNeverComes() {
        var decoder = InputDecoder()
        #expect(decoder.feed("\u{1B}[200~partial") == [])
        #expect(decoder.isCollectingPaste)
        #expect(decoder.finishPaste() == .key(.paste("partial")))
        #expect(!decoder.isCollectingPaste)
        #expect(decoder.finishPaste() == nil)
    }
}

/// Whatever sequence arrives, known or not, it is consumed whole: the text typed after it
/// arrives intact, and Esc never appears unless the Esc key was pressed alone.
@Suite struct NoSequenceBecomesKeysTests {
    static let parameterBytes = Gen.int(in: 0x30...0x3F).array(of: 0...12)
    static let finalByte = Gen.int(in: 0x40...0x7E)

    @Test func anyCSISequenceFollowedByTextLeavesOnlyTheText() async {
        await propertyCheck(count: 2000, input: Self.parameterBytes, Self.finalByte) { parameters, final in
            var decoder = InputDecoder()
            let body = String(decoding: parameters.map(UInt8.init), as: UTF8.self)
            let sequence = "\u{1B}[" + body + String(Unicode.Scalar(UInt8(final)))
            // X10 mouse (ESC [ M) reads three more bytes by design; skip it.
            // ESC [ M and ESC [ [ read more bytes by design; CSI u reports stand for any key.
            // ESC [ 200 ~ starts a bracketed paste: what follows is pasted text, not keys.
            guard !(body.isEmpty && final == 0x4D), !(body.isEmpty && final == 0x5B), final != 0x75, !(body == "200" && final == 0x7E)
            else { return }
            let events = decoder.feed(sequence + "ok")
            let texts = events.compactMap { if case let .key(.character(c)) = $0 { c } else { nil } }
            #expect(Array(texts.suffix(2)) == ["o", "k"], "\(sequence.debugDescription) -> \(events)")
            #expect(!events.contains(.key(.escape)))
            #expect(!events.contains(.key(.character("["))))
            #expect(decoder.waiting == .nothing)
        }
    }

    @Test func anySS3SequenceFollowedByTextLeavesOnlyTheText() async {
        await propertyCheck(count: 500, input: Self.finalByte) { final in
            var decoder = InputDecoder()
            let events = decoder.feed("\u{1B}O" + String(Unicode.Scalar(UInt8(final))) + "ok")
            #expect(Array(events.suffix(2)) == [.key(.character("o")), .key(.character("k"))])
            #expect(!events.contains(.key(.escape)))
        }
    }
}

/// Every CSI sequence with up to two parameter bytes, exhaustively.
@Suite struct ExhaustiveShortSequenceTests {
    @Test func everyShortCSISequenceIsConsumedWhole() {
        let bytes = (0x30...0x3F).map { UInt8($0) }
        var bodies: [[UInt8]] = [[]]
        bodies += bytes.map { [$0] }
        bodies += bytes.flatMap { a in bytes.map { [a, $0] } }
        var failures: [String] = []
        for body in bodies {
            // ESC [ M is an X10 mouse report (three more bytes); ESC [ [ the Linux console's F1–F5;
            // CSI u reports stand for any key, Esc and `[` included (tested on their own).
            for final in 0x40...0x7E where !(body.isEmpty && (final == 0x4D || final == 0x5B)) && final != 0x75 {
                var decoder = InputDecoder()
                let sequence = "\u{1B}[" + String(decoding: body, as: UTF8.self) + String(Unicode.Scalar(UInt8(final)))
                let events = decoder.feed(sequence + "ok")
                if events.suffix(2) != [.key(.character("o")), .key(.character("k"))] || events.contains(.key(.escape))
                    || events.contains(.key(.character("["))) || decoder.waiting != .nothing
                {
                    failures.append("\(sequence.debugDescription) -> \(events)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5))")
    }
}

extension InputDecoder {
    /// Decodes a whole string, character by character as the terminal feeds it.
    mutating func feed(_ text: String) -> [InputEvent] {
        text.unicodeScalars.flatMap { feed($0) }
    }
}
