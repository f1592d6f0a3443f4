import CNcursesw
import TabShell
import Testing
@testable import tui

/// `KeyDecoder.decode` / `feed` for single `wget_wch` results: text (status OK) and curses key
/// codes (status KEY_CODE_YES).
@Suite struct KeyDecoderKeyTests {
    private func text(_ code: UInt32) -> Key? { KeyDecoder.decode(status: OK, code: code) }
    private func keyCode(_ code: Int32) -> Key? { KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(code)) }

    @Test func printableCharactersBecomeCharacterKeys() {
        #expect(text(97) == .character("a"))
        #expect(text(65) == .character("A"))
        #expect(text(0x20) == .character(" "))
        #expect(text(0x7E) == .character("~"))
        #expect(text(0xE9) == .character("é"))
        #expect(text(0x4E2D) == .character("中"))
        #expect(text(0x1F600) == .character("😀"))
    }

    @Test func enterIsLineFeedCarriageReturnOrKeyEnter() {
        #expect(text(10) == .enter)
        #expect(text(13) == .enter)
        #expect(keyCode(KEY_ENTER) == .enter)
    }

    @Test func escapeTabAndBackTab() {
        #expect(text(27) == .escape)
        #expect(text(9) == .tab)
        #expect(keyCode(KEY_BTAB) == .backTab)
    }

    @Test func backspaceIsDelCtrlHOrKeyBackspace() {
        #expect(text(127) == .backspace)
        #expect(text(8) == .backspace)
        #expect(keyCode(KEY_BACKSPACE) == .backspace)
    }

    @Test func deleteIsKeyDC() {
        #expect(keyCode(KEY_DC) == .delete)
    }

    @Test func arrows() {
        #expect(keyCode(KEY_UP) == .up)
        #expect(keyCode(KEY_DOWN) == .down)
        #expect(keyCode(KEY_LEFT) == .left)
        #expect(keyCode(KEY_RIGHT) == .right)
    }

    @Test func homeAndEndIncludeTheirTerminfoAliases() {
        // Home: khome, kfnd (some terminals' Home), ka1 (keypad top-left).
        for code in [KEY_HOME, KEY_FIND, KEY_A1] { #expect(keyCode(code) == .home, "code \(code)") }
        // End: kend, kslt (some terminals' End), kll (home-down), kc1 (keypad bottom-left).
        for code in [KEY_END, KEY_SELECT, KEY_LL, KEY_C1] { #expect(keyCode(code) == .end, "code \(code)") }
    }

    @Test func pageUpAndPageDownIncludeKeypadCorners() {
        #expect(keyCode(KEY_PPAGE) == .pageUp)
        #expect(keyCode(KEY_A3) == .pageUp)
        #expect(keyCode(KEY_NPAGE) == .pageDown)
        #expect(keyCode(KEY_C3) == .pageDown)
    }

    @Test func functionKeysOneThroughSixtyThree() {
        for n in Int32(1)...63 { #expect(keyCode(ts_key_f(n)) == .function(Int(n)), "F\(n)") }
        #expect(keyCode(ts_key_f(0)) == nil, "F0 is not a key")
        #expect(keyCode(ts_key_f(64)) == nil, "past F63 is not a function key")
    }

    @Test func ctrlLettersBecomeLowercaseControlKeys() {
        // 8 (Ctrl-H), 9 (Ctrl-I), 10 (Ctrl-J) and 13 (Ctrl-M) are Backspace, Tab and Enter.
        let special: Set<UInt32> = [8, 9, 10, 13]
        for code in UInt32(1)...26 where !special.contains(code) {
            let letter = Character(Unicode.Scalar(UInt8(96 + code)))
            #expect(text(code) == .control(letter), "code \(code)")
        }
        #expect(text(1) == .control("a"))
        #expect(text(4) == .control("d"))
        #expect(text(26) == .control("z"))
    }

    @Test func unknownTextCodesAreIgnored() {
        // NUL (Ctrl-Space), FS GS RS US, C1 controls (CSI 0x9B), a lone surrogate, an unassigned
        // code point, a noncharacter and a value past Unicode: none of them is a key.
        for code: UInt32 in [0, 28, 29, 30, 31, 0x80, 0x85, 0x9B, 0x9F, 0xD800, 0xDFFF, 0x0378, 0xFFFF, 0x11_0000] {
            #expect(text(code) == nil, "code \(code)")
        }
    }

    @Test func unknownKeyCodesAreIgnored() {
        for code in [KEY_IC, KEY_HELP, KEY_PRINT, KEY_SRIGHT, ts_key_f(0), KeyDecoder.pasteBeginCode, KeyDecoder.pasteEndCode] {
            #expect(keyCode(code) == nil, "code \(code)")
        }
    }

    @Test func errStatusIsNothing() {
        #expect(KeyDecoder.decode(status: ERR, code: 97) == nil)
        var decoder = KeyDecoder()
        #expect(decoder.feed(status: ERR, code: 97) == nil)
        #expect(decoder.feed(status: ERR, code: UInt32(KEY_UP)) == nil)
    }

    @Test func feedDeliversKeys() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(status: OK, code: 97) == .key(.character("a")))
        #expect(decoder.feed(status: OK, code: 13) == .key(.enter))
        #expect(decoder.feed(status: KEY_CODE_YES, code: UInt32(KEY_UP)) == .key(.up))
        #expect(decoder.feed(status: OK, code: 0) == nil)
        #expect(decoder.feed(status: KEY_CODE_YES, code: UInt32(KEY_IC)) == nil)
    }

    @Test func resizeAndMouseCodesAskTheTerminalToAct() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(status: KEY_CODE_YES, code: UInt32(KEY_RESIZE)) == .resize)
        #expect(decoder.feed(status: KEY_CODE_YES, code: UInt32(KEY_MOUSE)) == .mouse)
        // As text (status OK) the same numbers are just characters, not resize/mouse.
        #expect(decoder.feed(status: OK, code: UInt32(KEY_RESIZE)) != .resize)
        #expect(decoder.feed(status: OK, code: UInt32(KEY_MOUSE)) != .mouse)
    }
}

/// Bracketed paste: "\e[200~" … "\e[201~" arrive as `pasteBeginCode` … `pasteEndCode`.
@Suite struct KeyDecoderPasteTests {
    private static let begin = UInt32(KeyDecoder.pasteBeginCode)
    private static let end = UInt32(KeyDecoder.pasteEndCode)

    /// Feeds begin, the scalars of `text`, end; every feed before the end must return nil.
    private func paste(_ text: String, into decoder: inout KeyDecoder) -> KeyDecoder.Decoded? {
        #expect(decoder.feed(status: KEY_CODE_YES, code: Self.begin) == nil)
        #expect(decoder.isCollectingPaste)
        for scalar in text.unicodeScalars {
            #expect(decoder.feed(status: OK, code: scalar.value) == nil, "scalar \(scalar.value) leaked out of the paste")
        }
        return decoder.feed(status: KEY_CODE_YES, code: Self.end)
    }

    private func paste(_ text: String) -> KeyDecoder.Decoded? {
        var decoder = KeyDecoder()
        return paste(text, into: &decoder)
    }

    @Test func markersCollectTextAsOnePasteKey() {
        var decoder = KeyDecoder()
        #expect(paste("hello, 世界 😀", into: &decoder) == .key(.paste("hello, 世界 😀")))
        #expect(!decoder.isCollectingPaste)
        // After the paste, typing is keys again.
        #expect(decoder.feed(status: OK, code: 97) == .key(.character("a")))
    }

    @Test func newlinesAndTabsAreKept() {
        #expect(paste("line 1\nline 2\n\tindented") == .key(.paste("line 1\nline 2\n\tindented")))
    }

    @Test func carriageReturnAndCRLFBecomeOneNewline() {
        #expect(paste("a\rb") == .key(.paste("a\nb")))
        #expect(paste("a\r\nb") == .key(.paste("a\nb")))
        #expect(paste("a\r\n\r\nb") == .key(.paste("a\n\nb")))
        #expect(paste("a\n\rb") == .key(.paste("a\n\nb")), "LF then CR is two line breaks")
        #expect(paste("a\r\rb") == .key(.paste("a\n\nb")))
    }

    @Test func controlCharactersAreDropped() {
        #expect(paste("d\u{1B}[31mred\u{1B}[0m") == .key(.paste("d[31mred[0m")))
        #expect(paste("a\u{0}\u{7}\u{8}\u{7F}\u{9B}\u{85}b") == .key(.paste("ab")))
        // A lone surrogate, an unassigned code point and a value past Unicode (not writable as
        // Swift string literals) are dropped too.
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        for code: UInt32 in [120, 0xD800, 0x0378, 0x11_0000, 121] { _ = decoder.feed(status: OK, code: code) }
        #expect(decoder.feed(status: KEY_CODE_YES, code: Self.end) == .key(.paste("xy")))
    }

    @Test func keysCurseRecognisesInsideAPasteAreDropped() {
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        _ = decoder.feed(status: OK, code: 97)
        #expect(decoder.feed(status: KEY_CODE_YES, code: UInt32(KEY_UP)) == nil)
        #expect(decoder.feed(status: KEY_CODE_YES, code: UInt32(ts_key_f(1))) == nil)
        _ = decoder.feed(status: OK, code: 98)
        #expect(decoder.feed(status: KEY_CODE_YES, code: Self.end) == .key(.paste("ab")))
    }

    @Test func emptyPasteAndStrayEndMarkerYieldNothing() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(status: KEY_CODE_YES, code: Self.end) == nil, "end marker without a begin")
        #expect(paste("", into: &decoder) == nil)
        #expect(paste("\u{1B}\u{7}", into: &decoder) == nil, "nothing survived the filter")
        #expect(!decoder.isCollectingPaste)
    }

    @Test func pasteIsCappedAtOneMebibyte() {
        let limit = KeyDecoder.pasteByteLimit
        #expect(limit == 1 << 20)
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        for _ in 0..<(limit + 100) { _ = decoder.feed(status: OK, code: 120) }
        guard case let .key(.paste(text))? = decoder.feed(status: KEY_CODE_YES, code: Self.end) else {
            Issue.record("no paste delivered")
            return
        }
        #expect(text.utf8.count == limit)
    }

    @Test func nothingAfterTheCutGetsIn() {
        // Fill to one byte short of the cap, then a two-byte "é" does not fit, and the
        // one-byte "y" after it must not slip in either: the paste is cut, not holed.
        let limit = KeyDecoder.pasteByteLimit
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        for _ in 0..<(limit - 1) { _ = decoder.feed(status: OK, code: 120) }
        _ = decoder.feed(status: OK, code: 0xE9)
        _ = decoder.feed(status: OK, code: 121)
        guard case let .key(.paste(text))? = decoder.feed(status: KEY_CODE_YES, code: Self.end) else {
            Issue.record("no paste delivered")
            return
        }
        #expect(text.utf8.count == limit - 1)
        #expect(text.last == "x")
    }

    /// The cap must hold for the whole paste even when the pasted stream itself contains the
    /// begin marker again (a runaway or hostile stream can repeat "\e[200~").
    @Test func repeatedBeginMarkerDoesNotResetTheCap() {
        let limit = KeyDecoder.pasteByteLimit
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        for _ in 0..<limit { _ = decoder.feed(status: OK, code: 120) }
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        for _ in 0..<100 { _ = decoder.feed(status: OK, code: 120) }
        guard case let .key(.paste(text))? = decoder.feed(status: KEY_CODE_YES, code: Self.end) else {
            Issue.record("no paste delivered")
            return
        }
        #expect(text.utf8.count <= limit, "paste grew past the cap: \(text.utf8.count) bytes")
    }

    @Test func repeatedBeginMarkerKeepsTextCollectedSoFar() {
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        _ = decoder.feed(status: OK, code: 97)
        #expect(paste("b", into: &decoder) == .key(.paste("ab")))
    }

    @Test func finishPasteDeliversWhatArrivedWhenTheEndMarkerNeverComes() {
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        for scalar in "half a\r\npaste".unicodeScalars { _ = decoder.feed(status: OK, code: scalar.value) }
        #expect(decoder.finishPaste() == .paste("half a\npaste"))
        #expect(!decoder.isCollectingPaste)
        #expect(decoder.finishPaste() == nil, "a paste is delivered once")
        // A late end marker after the silence timeout delivers nothing more.
        #expect(decoder.feed(status: KEY_CODE_YES, code: Self.end) == nil)
        #expect(decoder.feed(status: OK, code: 97) == .key(.character("a")))
    }

    @Test func finishPasteWithoutAPasteIsNil() {
        var decoder = KeyDecoder()
        #expect(decoder.finishPaste() == nil)
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        #expect(decoder.finishPaste() == nil, "empty paste")
    }

    @Test func resizeStillReportedDuringAPaste() {
        var decoder = KeyDecoder()
        _ = decoder.feed(status: KEY_CODE_YES, code: Self.begin)
        #expect(decoder.feed(status: KEY_CODE_YES, code: UInt32(KEY_RESIZE)) == .resize)
        #expect(decoder.isCollectingPaste)
    }
}

/// Mouse reports: button-1 press is a click; a CLICKED report for the same press is dropped.
@Suite struct KeyDecoderMouseTests {
    @Test func buttonOnePressIsAClick() {
        var decoder = KeyDecoder()
        #expect(decoder.mouse(buttons: ts_button1_pressed(), row: 2, column: 3) == .click(row: 2, column: 3))
    }

    @Test func clickReportForTheSameCellRightAfterThePressIsDeduped() {
        var decoder = KeyDecoder()
        _ = decoder.mouse(buttons: ts_button1_pressed(), row: 2, column: 3)
        #expect(decoder.mouse(buttons: ts_button1_clicked(), row: 2, column: 3) == nil)
        // The dedupe consumes the press: another click report is a new click.
        #expect(decoder.mouse(buttons: ts_button1_clicked(), row: 2, column: 3) == .click(row: 2, column: 3))
    }

    @Test func clickReportElsewhereIsNotDeduped() {
        var decoder = KeyDecoder()
        _ = decoder.mouse(buttons: ts_button1_pressed(), row: 2, column: 3)
        #expect(decoder.mouse(buttons: ts_button1_clicked(), row: 2, column: 4) == .click(row: 2, column: 4))
    }

    @Test func clickReportWithoutAPressIsAClick() {
        var decoder = KeyDecoder()
        #expect(decoder.mouse(buttons: ts_button1_clicked(), row: 5, column: 0) == .click(row: 5, column: 0))
    }

    @Test func twoPressesOnTheSameCellAreTwoClicks() {
        var decoder = KeyDecoder()
        #expect(decoder.mouse(buttons: ts_button1_pressed(), row: 1, column: 1) == .click(row: 1, column: 1))
        #expect(decoder.mouse(buttons: ts_button1_pressed(), row: 1, column: 1) == .click(row: 1, column: 1))
    }

    @Test func wheelUpAndDown() {
        var decoder = KeyDecoder()
        #expect(ts_button5_pressed() != 0, "this ncurses has no wheel-down mask")
        #expect(decoder.mouse(buttons: ts_button4_pressed(), row: 0, column: 0) == .scroll(up: true))
        #expect(decoder.mouse(buttons: ts_button5_pressed(), row: 9, column: 9) == .scroll(up: false))
    }

    @Test func releaseAndOtherReportsAreIgnored() {
        var decoder = KeyDecoder()
        #expect(decoder.mouse(buttons: ts_button1_released(), row: 0, column: 0) == nil)
        #expect(decoder.mouse(buttons: 0, row: 0, column: 0) == nil)
    }
}

/// `KeyDecoder.joined`: scalars of one input burst that form one grapheme become one character.
@Suite struct KeyDecoderJoiningTests {
    private func scalars(_ character: Character?) -> [UInt32]? { character.map { $0.unicodeScalars.map(\.value) } }

    @Test func combiningMarkJoinsItsBase() {
        #expect(scalars(KeyDecoder.joined("e", "\u{301}")) == [0x65, 0x301])
        #expect(scalars(KeyDecoder.joined("e\u{301}", "\u{323}")) == [0x65, 0x301, 0x323])
    }

    @Test func zwjSequenceBuildsUpOneScalarAtATime() {
        var character: Character = "👨"
        for next: Character in ["\u{200D}", "👩", "\u{200D}", "👧"] {
            guard let joined = KeyDecoder.joined(character, next) else {
                Issue.record("\(next.unicodeScalars.map(\.value)) did not join")
                return
            }
            character = joined
        }
        #expect(scalars(character) == [0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467])
    }

    @Test func modifiersVariationSelectorsAndFlagsJoin() {
        #expect(scalars(KeyDecoder.joined("👍", "\u{1F3FB}")) == [0x1F44D, 0x1F3FB])
        #expect(scalars(KeyDecoder.joined("❤", "\u{FE0F}")) == [0x2764, 0xFE0F])
        #expect(scalars(KeyDecoder.joined("🇺", "🇸")) == [0x1F1FA, 0x1F1F8])
    }

    @Test func separateGraphemesDoNotJoin() {
        #expect(KeyDecoder.joined("a", "b") == nil)
        #expect(KeyDecoder.joined("e", "e") == nil)
        #expect(KeyDecoder.joined("中", "文") == nil)
        #expect(KeyDecoder.joined("😀", "😀") == nil)
        #expect(KeyDecoder.joined("🇺🇸", "🇬") == nil, "a third regional indicator starts a new flag")
    }
}
