import Scanning
import Testing

@Suite("Scanner report (doctor --scanner)")
struct ScannerReportTests {
    @Test("a well-set GS1 scanner: AIM prefix, 0x1D, Enter, scanner speed")
    func wellSet() {
        let scan = "]C1" + "0109506000134352" + "10ABC123" + gs + "17201225"
        let report = ScannerReport(keystrokes: keystrokes(scan, gap: .milliseconds(2)), options: options())
        #expect(report.source == .scanner)
        #expect(report.suffix == .enter)
        #expect(report.aim == AIMIdentifier(codeCharacter: "C", modifier: "1"))
        #expect(report.separator == .groupSeparator)
        #expect(report.layoutMismatch == nil)
        #expect(report.charactersPerSecond.map { $0.rounded() } == 500)
        #expect(
            report.text == """
                Typed by:   scanner (2.0 ms between keys on average)
                Speed:      500 characters per second
                Suffix:     Enter
                AIM prefix: ]C1 (GS1-128)
                Separator:  0x1D (GS), as GS1 specifies
                Layout:     no mismatch seen
                Read:       GS1-128 — GTIN 09506000134352 · lot ABC123 · exp 2020-12-25
                """)
    }

    @Test("no prefix, no suffix and a stand-in separator are found and each gets its fix")
    func standInNoPrefixNoSuffix() {
        let scan = "0109506000134352" + "10ABC123~17201225"
        let report = ScannerReport(keystrokes: keystrokes(scan, gap: .milliseconds(8), suffix: nil), options: options())
        #expect(report.suffix == ScanSuffix.none)
        #expect(report.aim == nil)
        #expect(report.separator == .standIn("~", configured: false))
        #expect(report.lines[2] == "Suffix:     none — set the scanner to end each scan with Enter")
        #expect(report.lines[3].hasPrefix("AIM prefix: none — turn on AIM identifiers"))
        #expect(report.lines[4] == "Separator:  “~” standing in for 0x1D — set Settings › GS1 separator to ~")
    }

    @Test("a stand-in already set in Settings is reported as such")
    func configuredStandIn() {
        let scan = "]C10109506000134352" + "10ABC|17201225"
        let report = ScannerReport(keystrokes: keystrokes(scan, gap: .milliseconds(3), suffix: "\t"), options: options(standIn: "|"))
        #expect(report.separator == .standIn("|", configured: true))
        #expect(report.suffix == .tab)
        #expect(report.scan.expiry == CalendarDate(year: 2020, month: 12, day: 25))
    }

    @Test("a US scanner on an AZERTY computer is reported with the fix")
    func azerty() {
        let translation = LayoutTranslation(scanner: .us, computer: .azerty)
        let report = ScannerReport(keystrokes: keystrokes(translation.garble("4006381333931"), gap: .milliseconds(4)), options: options())
        #expect(report.layoutMismatch?.translation == translation)
        #expect(report.lines[5].hasPrefix("Layout:     Your scanner types for a US keyboard but this computer uses AZERTY (French)"))
        #expect(report.separator == SeparatorFinding.none)
        #expect(report.lines[4].hasPrefix("Separator:  none (not GS1 data"))
    }

    @Test("a person typing the test code is told to scan it")
    func person() {
        let report = ScannerReport(keystrokes: keystrokes("4006381333931", gap: .milliseconds(150)), options: options())
        #expect(report.source == .person)
        #expect(report.lines[0] == "Typed by:   a person, by its timing (150 ms between keys on average) — scan the test label rather than typing it")
        #expect(report.lines[1] == "Speed:      7 characters per second")
        #expect(report.lines[6] == "Read:       EAN-13 — EAN-13 4006381333931")
    }

    @Test("keys that all came at once, and a scan that does not read")
    func burstAndError() {
        let report = ScannerReport(keystrokes: keystrokes("]C10109506000134355", gap: .zero), options: options())
        #expect(report.charactersPerSecond == nil)
        #expect(report.lines[1] == "Speed:      all keys at once (sent in one burst)")
        #expect(report.lines[6] == "Read:       not read: AI (01): check digit should be 2, not 5.")
    }
}

@Suite("Toast description")
struct DescriptionTests {
    @Test(
        "one line with the fields people look for",
        arguments: [
            ("(01)09506000134352(17)201225(10)ABC123", "GTIN 09506000134352 · exp 2020-12-25 · lot ABC123"),
            ("(00)006141419999900006(02)09506000134352(37)12", "SSCC 006141419999900006 · contains 09506000134352 · qty 12"),
            ("(01)09506000134352(21)SN1(15)250100", "GTIN 09506000134352 · serial SN1 · best before 2025-01-31"),
            ("(01)09506000134352(3103)001250(3302)012345", "GTIN 09506000134352 · net weight 1.250 kg · gross weight 123.45 kg"),
            ("(01)09506000134352(3313)000900", "GTIN 09506000134352 · length 0.900 m (logistics)"),
            ("(414)9520614141230(254)A1", "Location (GLN) 9520614141230 · GLN extension A1"),
            ("]C0ABC", "Code 128 ABC"),
            ("just text", "just text"),
            ("036000291452", "UPC-A 036000291452"),
        ])
    func lines(input: String, description: String) {
        #expect(parse(input).description == description)
    }

    @Test("the accessors pick the fields out")
    func accessors() {
        let result = parse("(00)006141419999900006(01)09506000134352(10)L1(21)S1(17)201225(15)201200(30)7")
        #expect(result.sscc == "006141419999900006")
        #expect(result.gtin == "09506000134352")
        #expect(result.lot == "L1")
        #expect(result.serial == "S1")
        #expect(result.expiry == CalendarDate(year: 2020, month: 12, day: 25))
        #expect(result.element("15")?.value == .date(CalendarDate(year: 2020, month: 12, day: 31)))
        #expect(result.quantity == 7)
        #expect(result.element("99") == nil)
        #expect(parse("hello").gtin == nil)
        #expect(parse("4006381333932").gtin == nil)  // no GTIN from a code that did not read
    }

    @Test("GS1 errors read as a sentence on their own and name the AI")
    func errorSentences() {
        #expect(ScanError.gs1(.unknownAI("99x")).message == "Unknown AI (99x).")
        #expect(GS1Error.wrongLength(ai: "10", found: 21, allowed: 1...20, numeric: false).message == "AI (10): more than 20 characters")
        #expect(GS1Error.wrongLength(ai: "01", found: 13, allowed: 14...14, numeric: true).message == "AI (01): 13 digits, needs 14")
        #expect(GS1Error.wrongLength(ai: "253", found: 12, allowed: 13...30, numeric: false).message == "AI (253): 12 characters, needs at least 13")
        #expect(GS1Error.badCharacter(ai: "10", character: "\u{1B}", set: .cset82).message == "AI (10): U+001B is not allowed (GS1 character set 82)")
        #expect(GS1Error.badTime(ai: "7003", value: "2460").message == "AI (7003): 2460 is not a time (HHMM)")
        #expect(GS1Error.badCheckDigit(ai: "01", expected: 2, found: 5).ai == "01")
        #expect(GS1Error.expectedAI(found: "X").ai == nil)
    }
}
