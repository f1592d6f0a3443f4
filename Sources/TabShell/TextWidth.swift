import Foundation

/// How many terminal cells text occupies, decided per grapheme cluster without libc.
///
/// A cluster takes the width of its widest scalar: combining marks, variation selectors, joiners
/// and other format characters add nothing, so a ZWJ family or a flag is one wide cluster.
public enum TextWidth {
    /// The display width of a whole string.
    public static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The longest start of `text` that fits in `width` cells.
    public static func prefix(_ text: String, width: Int) -> String {
        var used = 0
        var out = ""
        for character in text {
            let w = of(character)
            if used + w > width { break }
            used += w
            out.append(character)
        }
        return out
    }

    /// The display width of one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if character.isASCII { return character.asciiValue.map { $0 >= 0x20 && $0 != 0x7F ? 1 : 0 } ?? 1 }
        let scalars = character.unicodeScalars
        // Plain loops: this runs for every character drawn.
        var emojiPresentation = false
        var textPresentation = false
        for scalar in scalars {
            if scalar == emojiVariationSelector { emojiPresentation = true }
            if scalar == textVariationSelector { textPresentation = true }
        }
        if emojiPresentation, let first = scalars.first, first.properties.isEmoji { return 2 }
        var widest = 0
        for scalar in scalars where widest < 2 { widest = max(widest, width(of: scalar, textPresentation: textPresentation)) }
        return widest
    }

    /// The width of a scalar on its own.
    static func width(of scalar: Unicode.Scalar, textPresentation: Bool = false) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        if !textPresentation, scalar.properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(value) { return 2 }
        return 1
    }

    private static let emojiVariationSelector: Unicode.Scalar = "\u{FE0F}"
    private static let textVariationSelector: Unicode.Scalar = "\u{FE0E}"

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: break
        }
        let value = scalar.value
        // Hangul medial vowels and final consonants join the preceding initial consonant.
        return (0x1160...0x11FF).contains(value) || value == 0x200B
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK Unified Ideographs extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut, Khitan
        0x1B000...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B-F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G-H
    ]
}
