import Domain
import TabShell
import TestSupport
import Testing

@testable import Render

@Suite struct TextLayoutTests {
    @Test func truncateEndsInAnEllipsisOnlyWhenCut() {
        #expect(TextLayout.truncate("Inbox", width: 5, ellipsis: "…") == "Inbox")
        #expect(TextLayout.truncate("Inbox requests", width: 7, ellipsis: "…") == "Inbox…")
        #expect(TextLayout.truncate("Inbox requests", width: 9, ellipsis: "...") == "Inbox...")
        #expect(TextLayout.truncate("日本語テキスト", width: 6, ellipsis: "…") == "日本…")
        #expect(TextLayout.truncate("abc", width: 1, ellipsis: "...") == "a")
        #expect(TextLayout.truncate("abc", width: 0, ellipsis: "…") == "")
    }

    /// The cut reads no further than what fits, and says what measuring the whole text said: the
    /// longest start within the width, or one within the width less the ellipsis, its trailing
    /// spaces dropped, then the ellipsis.
    @Test func truncateIsTheLongestStartThatFits() {
        let pieces = ["a", " ", "日", "e\u{301}", "\u{200B}", "👍🏽", "\u{1F1EF}\u{1F1F5}", "x\u{FE0E}", "\t", "\u{1B}"]
        var random = SplitMix64(seed: 37)
        for _ in 0..<3_000 {
            let text = (0..<Int(random.next() % 14)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let width = Int(random.next() % 12)
            for ellipsis in ["…", "..."] {
                #expect(
                    TextLayout.truncate(text, width: width, ellipsis: ellipsis) == Self.measuredWhole(text, width, ellipsis),
                    "\(text.unicodeScalars.map { String($0.value, radix: 16) }) at \(width)")
            }
        }
    }

    /// The definition, by measuring the whole text first.
    static func measuredWhole(_ text: String, _ width: Int, _ ellipsis: String) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(text) <= width { return text }
        let room = width - TextWidth.of(ellipsis)
        guard room > 0 else { return TextWidth.prefix(text, width: width) }
        var kept = TextWidth.prefix(text, width: room)
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + ellipsis
    }

    @Test func truncateHeadKeepsTheEnd() {
        #expect(TextLayout.truncateHead("/home/ana/data.sqlite", width: 12, ellipsis: "…") == "…data.sqlite")
        #expect(TextLayout.truncateHead("short", width: 12, ellipsis: "…") == "short")
    }

    @Test func wrapBreaksAtSpacesAndBreaksLongWords() {
        #expect(TextWrap.lines("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(TextWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrap.lines("日本語のテキスト", width: 5) == ["日本", "語の", "テキ", "スト"])
        #expect(TextWrap.lines("", width: 5) == [""])
    }

    @Test func wrapRangesCoverEveryItem() {
        let text = Array("one two  three four")
        let ranges = TextWrap.ranges(widths: text.map { _ in 1 }, breaksAfter: text.map { $0 == " " }, width: 6)
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == text.count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ranges.map { String(text[$0]) } == ["one ", "two  ", "three ", "four"])
    }

    @Test func ageAndCounts() {
        let now = Demo.now
        #expect(Age.short(from: now.addingTimeInterval(-30), now: now) == "now")
        #expect(Age.short(from: now.addingTimeInterval(30), now: now) == "now")
        #expect(Age.short(from: now.addingTimeInterval(-5 * 60), now: now) == "5m")
        #expect(Age.short(from: now.addingTimeInterval(-3 * 3_600), now: now) == "3h")
        #expect(Age.short(from: now.addingTimeInterval(-2 * 86_400), now: now) == "2d")
        #expect(Age.short(from: now.addingTimeInterval(-68 * 86_400), now: now) == "Jan 5")
        #expect(Age.short(from: now.addingTimeInterval(-400 * 86_400), now: now) == "2024")
        #expect(Age.phrase(from: now.addingTimeInterval(-5 * 60), now: now) == "5m ago")
        #expect(Age.timestamp(now) == "2025-03-14 12:00 UTC")
        #expect(Count.grouped(0) == "0")
        #expect(Count.grouped(999) == "999")
        #expect(Count.grouped(1_234) == "1,234")
        #expect(Count.grouped(1_000_000) == "1,000,000")
        #expect(Count.noun(1, "record") == "1 record")
        #expect(Count.noun(1_234, "record") == "1,234 records")
    }
}
