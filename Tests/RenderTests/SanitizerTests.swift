import Domain
import Scanning
import TabShell
import Testing

@testable import Render

@Suite struct SanitizerTests {
    let unicode = Sanitizer(unicode: true)
    let ascii = Sanitizer(unicode: false)

    @Test func plainTextIsUntouched() {
        for text in ["Scan the pallet", "倉庫Aの在庫 🍎", "e\u{301}le\u{300}ve", "👨‍👩‍👧"] {
            #expect(unicode.line(text) == text)
            #expect(ascii.line(text) == text)
        }
    }

    @Test func controlsBecomeControlPictures() {
        #expect(unicode.line("\u{1B}[31mred") == "\u{241B}[31mred")
        #expect(unicode.line("bell\u{07}") == "bell\u{2407}")
        #expect(unicode.line("back\u{08}") == "back\u{2408}")
        #expect(unicode.line("nul\u{0}") == "nul\u{2400}")
        #expect(unicode.line("del\u{7F}") == "del\u{2421}")
        #expect(unicode.line("a\tb") == "a b")
    }

    @Test func c1AndBidiControlsBecomeReplacementCharacters() {
        #expect(unicode.line("\u{9B}2J") == "\u{FFFD}2J")
        #expect(unicode.line("\u{85}next") == "\u{FFFD}next")
        for bidi in ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}"] {
            #expect(unicode.line("x\(bidi)y") == "x\u{FFFD}y")
        }
    }

    @Test func asciiModeUsesQuestionMarks() {
        #expect(ascii.line("\u{1B}]0;title\u{07}") == "?]0;title?")
        #expect(ascii.line("\u{9B}\u{202E}\u{7F}") == "???")
    }

    @Test func lineBreaks() {
        #expect(unicode.line("one\ntwo\r\nthree\rfour") == "one⏎two⏎three⏎four")
        #expect(ascii.line("one\ntwo") == "one two")
        #expect(unicode.lines("one\r\ntwo\n\nthree\u{2028}four") == ["one", "two", "", "three", "four"])
    }

    @Test func scrubLeavesNothingUnsafe() {
        let hostile = String((0..<0xA0).compactMap { Unicode.Scalar($0).map(Character.init) }) + "\u{202E}\u{2066}\u{200F}\u{2028}"
        for sanitizer in [unicode, ascii] {
            #expect(!sanitizer.scrub(hostile).unicodeScalars.contains(where: Sanitizer.isUnsafe))
            #expect(!sanitizer.line(hostile).unicodeScalars.contains(where: Sanitizer.isUnsafe))
        }
    }
}
