import PropertyBased
import Testing

@testable import Scanning

@Suite("Keyboard layouts")
struct KeyboardLayoutTests {
    private let usOnAZERTY = LayoutTranslation(scanner: .us, computer: .azerty)
    private let azertyOnUS = LayoutTranslation(scanner: .azerty, computer: .us)
    private let usOnQWERTZ = LayoutTranslation(scanner: .us, computer: .qwertz)
    private let usOnUK = LayoutTranslation(scanner: .us, computer: .uk)

    @Test("a US scanner on an AZERTY computer types &é\"'(-è_çà for 1234567890, and back")
    func azertyDigits() {
        #expect(usOnAZERTY.garble("1234567890") == "&é\"'(-è_çà")
        #expect(usOnAZERTY.restore("&é\"'(-è_çà") == "1234567890")
        // Shifted: the scanner's !@#$ come out as AZERTY's shifted number row, the digits.
        #expect(usOnAZERTY.garble("!@#$%^&*()") == "1234567890")
        // An AZERTY scanner on a US computer: the other way round.
        #expect(azertyOnUS.garble("1234567890") == "!@#$%^&*()")
        #expect(azertyOnUS.restore("!@#$%^&*()") == "1234567890")
        #expect(usOnAZERTY.garble("aqzwm") == "qawz,")
    }

    @Test("German QWERTZ swaps y and z and moves the punctuation scanners send")
    func qwertz() {
        #expect(usOnQWERTZ.garble("yz-/") == "zyß-")
        #expect(usOnQWERTZ.garble("(01)") == ")01=")
        #expect(usOnQWERTZ.garble("https://a/01/?17=") == "httpsÖ--a-01-_17´")
        #expect(usOnQWERTZ.garble("0123456789") == "0123456789")
    }

    @Test("UK swaps \" and @, and # and £")
    func uk() {
        #expect(usOnUK.garble("\"@#") == "@\"£")
        #expect(usOnUK.restore("@\"£") == "\"@#")
        #expect(usOnUK.garble("0123456789ABCxyz") == "0123456789ABCxyz")
    }

    @Test("every layout's table is one-to-one, so undoing it is exact")
    func oneToOne() async {
        let translations = LayoutTranslation.candidates
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int(Int32.max)).array(of: 0...40), Gen.int(in: 0...(translations.count - 1))) {
            picks, index in
            // Text the scanner's layout can type (plus the GS1 separator, which is no key).
            let translation = translations[index]
            let typable = Array(translation.scanner.typableCharacters).sorted() + ["\u{1D}"]
            let text = String(picks.map { typable[$0 % typable.count] })
            #expect(translation.restore(translation.garble(text)) == text, "\(translation): \(text)")
        }
    }

    @Test("each table pairs every key with a different character")
    func tablesAreBijective() {
        for layout in KeyboardLayout.allCases {
            #expect(layout.typableCharacters.count == 94, "\(layout)")
        }
    }

    // MARK: - Detection

    @Test(
        "a scan that reads only once a layout is undone is detected, with the fix in the message",
        arguments: [
            (LayoutTranslation(scanner: .us, computer: .azerty), "4006381333931"),
            (LayoutTranslation(scanner: .azerty, computer: .us), "4006381333931"),
            (LayoutTranslation(scanner: .us, computer: .azerty), "]C10109506000134352" + "10ABC123" + "\u{1D}" + "17201225"),
            (LayoutTranslation(scanner: .us, computer: .qwertz), "https://id.gs1.org/01/09506000134352/10/XYZ?17=201225"),
            (LayoutTranslation(scanner: .us, computer: .qwertz), "(01)09506000134352(10)ZY12"),
            (LayoutTranslation(scanner: .qwertz, computer: .us), "(01)09506000134352(10)ZY12"),
            (LayoutTranslation(scanner: .us, computer: .uk), "(01)09506000134352(10)A\"B"),
        ])
    func detected(translation: LayoutTranslation, meant: String) {
        let received = translation.garble(meant)
        let result = parse(received)
        #expect(!result.isRecognised)
        #expect(result.layoutMismatch == .detected(translation, received: received, restored: meant))
        let message = result.layoutMismatch?.message ?? ""
        #expect(message.contains("Settings › Scanner layout to “\(translation)”"))
        #expect(message.contains(translation.computer.title))
        // With the setting the scan reads, and reads as meant.
        let fixed = parse(received, options(layout: translation))
        #expect(fixed.isRecognised)
        #expect(fixed.elements == parse(meant).elements)
        #expect(fixed.symbology == parse(meant).symbology)
        #expect(fixed.input == received)
    }

    @Test("the issue's example: AZERTY digits that are no valid code are still recognised")
    func azertyDigitsOnly() {
        let result = parse("&é\"'(-è_çà")
        #expect(result.symbology == .freeText)
        #expect(result.layoutMismatch == .detected(usOnAZERTY, received: "&é\"'(-è_çà", restored: "1234567890"))
        #expect(
            result.layoutMismatch?.message == "Your scanner types for a US keyboard but this computer uses AZERTY (French), "
                + "so “1234567890” arrives as “&é\"'(-è_çà”: set the scanner's keyboard layout to AZERTY (French), "
                + "or set Settings › Scanner layout to “US scanner on AZERTY”.")
    }

    @Test(
        "scans that read as they are, or ordinary text, raise nothing",
        arguments: [
            "4006381333931", "(01)09506000134352(10)ABC", "hello world", "Crème brûlée", "&&", "]C0ABC",
        ])
    func noFalseAlarm(input: String) {
        #expect(parse(input).layoutMismatch == nil)
    }

    @Test("detection can be turned off")
    func detectionOff() {
        #expect(parse("&é\"'(-è_çà", options(detectsLayout: false)).layoutMismatch == nil)
    }

    @Test("a layout setting that no longer fits is said, and the scan read as it came")
    func staleSetting() {
        let result = parse("4006381333931", options(layout: usOnAZERTY))
        #expect(result.symbology == .ean13)
        #expect(result.layoutMismatch == .settingNotNeeded(usOnAZERTY))
        #expect(result.layoutMismatch?.message.contains("set Settings › Scanner layout to none") == true)
    }

    /// A US scanner only: other scanner layouts cannot type all of set 82 without AltGr, which the
    /// tables leave out.
    @Test("any valid GS1 scan garbled by a US scanner on another layout reads back with the setting")
    func garbledRoundTrip() async {
        let translations = [usOnAZERTY, usOnQWERTZ, usOnUK]
        await propertyCheck(count: 200, input: Gen.uint64(in: 0...UInt64.max), Gen.int(in: 1...6), Gen.int(in: 0...2)) { seed, count, index in
            let elements = ElementSamples.elements(seed: seed, count: count)
            let meant = GS1Forms.raw(elements)
            let received = translations[index].garble(meant)
            let result = parse(received, options(layout: translations[index]))
            #expect(result.error == nil, "\(received.debugDescription): \(result.error?.message ?? "")")
            #expect(pairs(result) == elements.map { "(\($0.ai))\($0.value)" })
        }
    }
}

extension KeyboardLayout {
    /// The characters this layout types on the keys the tables cover; others (AltGr characters
    /// such as AZERTY's `@`) are outside the model and pass through unchanged.
    var typableCharacters: Set<Character> { Set(KeyMap.usKeys.map { character(atUSKey: $0) ?? $0 }) }
}
