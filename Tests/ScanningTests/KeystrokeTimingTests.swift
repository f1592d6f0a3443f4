import PropertyBased
import Scanning
import Testing

/// Keystrokes for `text`, `gap` apart from `start`, ending in `suffix` if given.
func keystrokes(_ text: String, gap: Duration, start: Duration = .seconds(100), suffix: Character? = "\r") -> [Keystroke] {
    let characters = Array(text) + (suffix.map { [$0] } ?? [])
    return characters.enumerated().map { index, character in Keystroke(character, at: start + gap * index) }
}

@Suite("Scanner or person, by timing")
struct KeystrokeTimingTests {
    @Test("keys a few milliseconds apart ending in Enter are a scanner")
    func scanner() {
        #expect(ScannerTiming.standard.source(of: keystrokes("4006381333931", gap: .milliseconds(3))) == .scanner)
        #expect(ScannerTiming.standard.source(of: keystrokes("4006381333931", gap: .milliseconds(30))) == .scanner)
        #expect(ScannerTiming.standard.source(of: keystrokes("4006381333931", gap: .zero)) == .scanner)
    }

    @Test("typing speed is a person")
    func person() {
        #expect(ScannerTiming.standard.source(of: keystrokes("4006381333931", gap: .milliseconds(120))) == .person)
        #expect(ScannerTiming.standard.source(of: keystrokes("4006381333931", gap: .milliseconds(31))) == .person)
    }

    @Test("too few characters, a correction or one long pause is a person")
    func notEnoughEvidence() {
        #expect(ScannerTiming.standard.source(of: keystrokes("123", gap: .milliseconds(2))) == .person)
        #expect(ScannerTiming.standard.source(of: keystrokes("1234", gap: .milliseconds(2))) == .scanner)
        #expect(ScannerTiming.standard.source(of: keystrokes("12\u{7F}345", gap: .milliseconds(2))) == .person)
        var paused = keystrokes("4006381333931", gap: .milliseconds(2))
        for index in 6..<paused.count { paused[index].time += .milliseconds(300) }
        #expect(ScannerTiming.standard.source(of: paused) == .person)
        #expect(ScannerTiming.standard.source(of: []) == .person)
    }

    @Test("the thresholds are parameters")
    func thresholds() {
        let keys = keystrokes("4006381333931", gap: .milliseconds(45))
        #expect(ScannerTiming.standard.source(of: keys) == .person)
        #expect(ScannerTiming(maximumMeanGap: .milliseconds(50)).source(of: keys) == .scanner)
        #expect(ScannerTiming(minimumCharacters: 20).source(of: keystrokes("4006381333931", gap: .milliseconds(2))) == .person)
    }

    @Test("the classifier hands back an entry at Enter or Tab, without the suffix")
    func classifierFeed() {
        var classifier = KeystrokeClassifier()
        let keys = keystrokes("ABC123", gap: .milliseconds(4), suffix: "\t")
        for key in keys.dropLast() { #expect(classifier.feed(key) == nil) }
        #expect(classifier.pending.count == 6)
        let entry = classifier.feed(keys[keys.count - 1])
        #expect(entry?.text == "ABC123")
        #expect(entry?.suffix == .tab)
        #expect(entry?.source == .scanner)
        #expect(entry?.keystrokes == keys)
        #expect(classifier.pending.isEmpty)

        let typed = keystrokes("hi there", gap: .milliseconds(180))
        let entries = typed.compactMap { classifier.feed($0) }
        #expect(entries.map(\.source) == [.person])
        #expect(entries.map(\.suffix) == [.enter])
    }

    @Test("reset forgets pending keys")
    func reset() {
        var classifier = KeystrokeClassifier()
        _ = classifier.feed(Keystroke("1", nanoseconds: 1_000_000))
        classifier.reset()
        #expect(classifier.pending.isEmpty)
    }

    @Test("Enter is CR, LF or CR LF; Tab is Tab")
    func suffixes() {
        #expect(ScanSuffix("\r") == .enter)
        #expect(ScanSuffix("\n") == .enter)
        #expect(ScanSuffix("\r\n") == .enter)
        #expect(ScanSuffix("\t") == .tab)
        #expect(ScanSuffix("x") == ScanSuffix.none)
        #expect(Keystroke("\r", nanoseconds: 5).time == .nanoseconds(5))
    }

    @Test("any steady gap up to 30 ms is a scanner, any steady gap from 31 ms a person")
    func steadyGaps() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...30), Gen.int(in: 31...400), Gen.int(in: 4...60)) { fast, slow, length in
            let text = String(repeating: "7", count: length)
            #expect(ScannerTiming.standard.source(of: keystrokes(text, gap: .milliseconds(fast))) == .scanner)
            #expect(ScannerTiming.standard.source(of: keystrokes(text, gap: .milliseconds(slow))) == .person)
        }
    }
}
