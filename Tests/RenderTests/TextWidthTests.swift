import TabShell
import Testing

@testable import Render

@Suite struct TextWidthTests {
    @Test(arguments: [
        ("abc", 3), ("", 0), ("Zürich", 6),
        ("日本語", 6), ("한국어", 6), ("カタカナ", 8), ("ひらがな", 8), ("、。", 4), ("Ａ１", 4), ("￥", 2),
        ("ｱｲ", 2),  // halfwidth katakana stays narrow
        ("𠀀", 2),  // CJK extension B
    ])
    func wideAndNarrowText(text: String, width: Int) {
        #expect(TextWidth.of(text) == width)
    }

    @Test(arguments: [
        ("🍎", 2), ("👨‍👩‍👧", 2), ("🇩🇪", 2), ("1️⃣", 2), ("✔️", 2), ("👍🏽", 2),
        ("✔︎", 1), ("❤", 1), ("©", 1),
    ])
    func emoji(text: String, width: Int) {
        #expect(text.count == 1)
        #expect(TextWidth.of(text) == width)
    }

    @Test func combiningMarksAndJoinersAddNothing() {
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.of("a\u{20DD}") == 1)  // enclosing mark
        #expect(TextWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)  // conjoining Hangul jamo: one syllable
        #expect(TextWidth.of("a\u{200B}b") == 2)  // zero width space
        #expect(TextWidth.of(Character("\u{200D}")) == 0)
        #expect(TextWidth.of(Character("\u{FE0F}")) == 0)
    }

    @Test func controlsHaveNoWidth() {
        #expect(TextWidth.of(Character("\u{1B}")) == 0)
        #expect(TextWidth.of(Character("\u{9B}")) == 0)
    }
}
