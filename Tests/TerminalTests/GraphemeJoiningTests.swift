import CNcursesw
import TabShell
import Testing

@testable import TerminalScreen

/// `Terminal.joined`: scalars of one input burst that form one grapheme become one character.
@Suite struct GraphemeJoiningTests {
    private func scalars(_ character: Character?) -> [UInt32]? { character.map { $0.unicodeScalars.map(\.value) } }

    @Test func combiningMarkJoinsItsBase() {
        #expect(scalars(Terminal.joined("e", "\u{301}")) == [0x65, 0x301])
        #expect(scalars(Terminal.joined("e\u{301}", "\u{323}")) == [0x65, 0x301, 0x323])
    }

    @Test func zwjSequenceBuildsUpOneScalarAtATime() {
        var character: Character = "👨"
        for next: Character in ["\u{200D}", "👩", "\u{200D}", "👧"] {
            guard let joined = Terminal.joined(character, next) else {
                Issue.record("\(next.unicodeScalars.map(\.value)) did not join")
                return
            }
            character = joined
        }
        #expect(scalars(character) == [0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467])
    }

    @Test func modifiersVariationSelectorsAndFlagsJoin() {
        #expect(scalars(Terminal.joined("👍", "\u{1F3FB}")) == [0x1F44D, 0x1F3FB])
        #expect(scalars(Terminal.joined("❤", "\u{FE0F}")) == [0x2764, 0xFE0F])
        #expect(scalars(Terminal.joined("🇺", "🇸")) == [0x1F1FA, 0x1F1F8])
    }

    @Test func separateGraphemesDoNotJoin() {
        #expect(Terminal.joined("a", "b") == nil)
        #expect(Terminal.joined("e", "e") == nil)
        #expect(Terminal.joined("中", "文") == nil)
        #expect(Terminal.joined("😀", "😀") == nil)
        #expect(Terminal.joined("🇺🇸", "🇬") == nil, "a third regional indicator starts a new flag")
    }
}
