/// How both engines index and search text of the scripts written without spaces between words
/// (Han, kana, Hangul, Thai, Lao, Myanmar, Khmer, Yi), so a search finds any part of such a run:
/// each of their characters is indexed as a word of its own, and a query run becomes a phrase of
/// its characters, so `市場` and `京の` both find "東京の市場". Everything else (Latin, digits,
/// Cyrillic…) keeps word-start matching.
///
/// The same text reaches both tokenizers: SQLite's index stores ``spaced(_:)`` of a record's
/// text (the `tabshell_search_text` function its triggers call), PostgreSQL's
/// `tabshell_search_units` does the same with regular expressions of these tables, which its
/// migration spells out and a test compares with them (MigrationTests' `postgresMarkClass`). Changing a table changes what is indexed: it takes a migration on each engine that
/// indexes every record again.
public enum SearchText {
    /// The blocks whose characters are each a word of their own.
    public static let unspacedRanges: [ClosedRange<UInt32>] = [
        0x0E00...0x0E7F,  // Thai
        0x0E80...0x0EFF,  // Lao
        0x1000...0x109F,  // Myanmar
        0x1100...0x11FF,  // Hangul Jamo
        0x1780...0x17FF,  // Khmer
        0x3040...0x30FF,  // Hiragana, Katakana
        0x3100...0x318F,  // Bopomofo, Hangul Compatibility Jamo
        0x31A0...0x31BF,  // Bopomofo Extended
        0x31F0...0x31FF,  // Katakana Phonetic Extensions
        0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA48F,  // Yi Syllables
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7FF,  // Hangul Syllables, Hangul Jamo Extended-B
        0xF900...0xFAFF,  // CJK Compatibility Ideographs
        0xFF66...0xFFDC,  // Halfwidth Katakana and Hangul
        0x1B000...0x1B16F,  // Kana Supplement, Kana Extended-A, Small Kana Extension
        0x20000...0x2FA1F,  // CJK Extensions B to F, CJK Compatibility Ideographs Supplement
        0x30000...0x323AF,  // CJK Extensions G and H
    ]

    /// The combining marks of those blocks (vowel signs, tone marks, the kana voicing marks).
    /// SQLite's tokenizer reads them as separators and PostgreSQL's as letters, so both indexes
    /// get a space instead: "กัน" is indexed, and searched, as ก and น.
    public static let markRanges: [ClosedRange<UInt32>] = [
        0x0E31...0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E,  // Thai
        0x0EB1...0x0EB1, 0x0EB4...0x0EBC, 0x0EC8...0x0ECE,  // Lao
        0x102B...0x103E, 0x1056...0x1059, 0x105E...0x1060, 0x1062...0x1064, 0x1067...0x106D,
        0x1071...0x1074, 0x1082...0x108D, 0x108F...0x108F, 0x109A...0x109D,  // Myanmar
        0x17B4...0x17D3, 0x17DD...0x17DD,  // Khmer
        0x3099...0x309A,  // combining kana voiced and semi-voiced sound marks
    ]

    /// The first scalar value of every table: text below it is returned as it is, at once.
    private static let lowest: UInt32 = 0x0E00

    /// Whether `scalar` is a character of a script written without spaces (not one of its marks).
    public static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= lowest && contains(unspacedRanges, scalar.value) && !contains(markRanges, scalar.value)
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= lowest && contains(markRanges, scalar.value)
    }

    private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        ranges.contains { $0.contains(value) }
    }

    // MARK: - Indexing

    /// `text` as the indexes take it: each character of a script written without spaces between
    /// two spaces, each of their marks a space, everything else as it is.
    public static func spaced(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= lowest }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isMark(scalar) {
                result.append(" ")
            } else if isUnspaced(scalar) {
                result.append(" ")
                result.append(scalar)
                result.append(" ")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    // MARK: - Searching

    /// One unit of a query: a word of a spaced script (matched by its start), or one character
    /// of a script written without spaces (matched exactly).
    public struct Unit: Equatable, Sendable {
        public var text: String
        /// A character of a script written without spaces.
        public var isUnspaced: Bool
    }

    /// The most units of a query (words, and each character of a script written without spaces)
    /// that go to an engine's index: more only slow the search down.
    public static let maximumQueryUnits = 16

    /// The phrases of a query: one per word of `text` (``SearchWords``), each the units of its
    /// word in order, which must follow each other in a record; a phrase's last unit, when it
    /// is a word, is matched as a prefix. At most `maximumUnits` units in all (a word cut there
    /// keeps its first units); a word of marks alone is left out.
    public static func phrases(of text: String, maximumUnits: Int = maximumQueryUnits) -> [[Unit]] {
        var phrases: [[Unit]] = []
        var budget = maximumUnits
        for word in SearchWords.of(text) where budget > 0 {
            let units = Array(self.units(of: word).prefix(budget))
            guard !units.isEmpty else { continue }
            budget -= units.count
            phrases.append(units)
        }
        return phrases
    }

    /// `word`'s units: its runs of other characters, and each character of a script written
    /// without spaces; marks of those scripts separate units and are left out.
    static func units(of word: String) -> [Unit] {
        var units: [Unit] = []
        var run = String.UnicodeScalarView()
        func endRun() {
            if !run.isEmpty { units.append(Unit(text: String(run), isUnspaced: false)) }
            run = String.UnicodeScalarView()
        }
        for scalar in word.unicodeScalars {
            if isMark(scalar) {
                endRun()
            } else if isUnspaced(scalar) {
                endRun()
                units.append(Unit(text: String(scalar), isUnspaced: true))
            } else {
                run.append(scalar)
            }
        }
        endRun()
        return units
    }
}
