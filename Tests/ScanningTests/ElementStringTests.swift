import Scanning
import Testing

/// Hand-checked cases for each AI group the issue names, in the raw form a scanner sends.
@Suite("GS1 element strings by AI group")
struct ElementStringTests {
    private func element(_ input: String) -> GS1Element? {
        let result = parse(input)
        #expect(result.error == nil, "\(input.debugDescription): \(result.error?.message ?? "")")
        return result.elements.first
    }

    private func errorMessage(_ input: String) -> String? {
        guard case let .gs1(error)? = parse(input).error else { return nil }
        return error.message
    }

    // MARK: - Keys with check digits: 00, 01, 02, 410–415

    @Test("SSCC (00): 18 digits with a check digit")
    func sscc() {
        // 0 0614141 999990000 6: check digit 6 by mod 10 (3,1,3,… from the right).
        #expect(element("]C100006141419999900006") == GS1Element(ai: "00", title: "SSCC", raw: "006141419999900006", value: .sscc("006141419999900006")))
        #expect(parse("]C100006141419999900006").sscc == "006141419999900006")
        #expect(errorMessage("]C100006141419999900007") == "AI (00): check digit should be 6, not 7")
        #expect(errorMessage("]C10000614141999990000") == "AI (00): 17 digits, needs 18")
    }

    @Test("GTIN (01) and contained GTIN (02)")
    func gtins() {
        #expect(element("]C10109506000134352") == GS1Element(ai: "01", title: "GTIN", raw: "09506000134352", value: .gtin("09506000134352")))
        #expect(element("]C10209506000134352")?.value == .gtin("09506000134352"))
        #expect(element("]C10209506000134352")?.title == "GTIN of contained items")
        #expect(errorMessage("]C10109506000134355") == "AI (01): check digit should be 2, not 5")
        #expect(errorMessage("]C1010950600013435") == "AI (01): 13 digits, needs 14")
        #expect(errorMessage("]C1010950600013435A") == "AI (01): “A” is not a digit")
        // A separator inside a predefined-length value cuts it short.
        #expect(errorMessage("]C101095060001343" + gs + "5") == "AI (01): 12 digits, needs 14")
    }

    @Test(
        "GLNs (410–415) are 13 digits with a check digit and need no separator",
        arguments: [
            ("410", "Ship to (GLN)"), ("411", "Bill to (GLN)"), ("412", "Purchased from (GLN)"),
            ("413", "Ship for (GLN)"), ("414", "Location (GLN)"), ("415", "Invoicing party (GLN)"),
        ])
    func glns(ai: String, title: String) {
        // 952061414123 0: check digit 0.
        let result = parse("]C1\(ai)9520614141230" + "10ABC")
        #expect(result.error == nil)
        #expect(result.elements.first == GS1Element(ai: ai, title: title, raw: "9520614141230", value: .gln("9520614141230")))
        #expect(result.lot == "ABC")
        #expect(errorMessage("]C1\(ai)9520614141231") == "AI (\(ai)): check digit should be 0, not 1")
    }

    // MARK: - Dates: 11, 13, 15, 16, 17

    @Test(
        "date AIs read YYMMDD with their titles",
        arguments: [
            ("11", "Production date"), ("13", "Packaging date"), ("15", "Best before"), ("16", "Sell by"), ("17", "Expiry"),
        ])
    func dateAIs(ai: String, title: String) {
        #expect(element("]C1\(ai)201225") == GS1Element(ai: ai, title: title, raw: "201225", value: .date(CalendarDate(year: 2020, month: 12, day: 25))))
    }

    @Test(
        "day 00 is the month's last day, leap years included",
        arguments: [
            ("17240200", CalendarDate(year: 2024, month: 2, day: 29)),
            ("17250200", CalendarDate(year: 2025, month: 2, day: 28)),
            ("15000200", CalendarDate(year: 2000, month: 2, day: 29)),  // 2000 is a leap year
            ("17991100", CalendarDate(year: 1999, month: 11, day: 30)),
            ("17301200", CalendarDate(year: 2030, month: 12, day: 31)),
        ])
    func dayZero(data: String, date: CalendarDate) {
        #expect(element("]C1" + data)?.value == .date(date))
    }

    @Test(
        "impossible dates are refused with the AI and the reason",
        arguments: [
            ("17201232", "AI (17): day 32 is not a date"),
            ("17201300", "AI (17): month 13 is not a month"),
            ("17200015", "AI (17): month 00 is not a month"),
            ("17210229", "AI (17): day 29 is not a date in February 2021"),
            ("11230431", "AI (11): day 31 is not a date in April 2023"),
            ("1720122", "AI (17): 5 digits, needs 6"),
            ("7006201200", "AI (7006): day 00 is not a date"),  // 7006 does not allow day 00
        ])
    func badDates(data: String, message: String) {
        #expect(errorMessage("]C1" + data) == message)
    }

    // MARK: - Batch/lot 10, serial 21

    @Test("batch/lot (10) and serial (21) take up to 20 characters of set 82, ending at a separator")
    func lotAndSerial() {
        let result = parse("]C11720122510AB-12/3" + gs + "21S/N:0042")
        #expect(result.error == nil)
        #expect(result.lot == "AB-12/3")
        #expect(result.serial == "S/N:0042")
        #expect(result.element("21")?.title == "Serial")
        #expect(result.element("10")?.title == "Batch/lot")
        #expect(parse("]C110" + String(repeating: "A", count: 20)).lot == String(repeating: "A", count: 20))
        #expect(errorMessage("]C110" + String(repeating: "A", count: 21)) == "AI (10): more than 20 characters")
        #expect(errorMessage("]C110AB#1") == "AI (10): “#” is not allowed (GS1 character set 82)")
        #expect(errorMessage("]C110" + gs + "21X") == "AI (10): the value is empty")
    }

    // MARK: - Counts 30, 37

    @Test("counts (30, 37) are up to 8 digits")
    func counts() {
        #expect(element("]C13012") == GS1Element(ai: "30", title: "Count", raw: "12", value: .count(12)))
        #expect(element("]C13700000025")?.value == .count(25))
        #expect(parse("]C10209506000134352" + "3725").quantity == 25)
        #expect(errorMessage("]C137123456789") == "AI (37): more than 8 digits")
        #expect(errorMessage("]C1301A") == "AI (30): “A” is not a digit")
    }

    // MARK: - Measures 310n–369n

    @Test(
        "measures put the decimal point where the AI's last digit says",
        arguments: [
            ("3100001250", "Net weight (kg)", Measure(value: ScaledDecimal(units: 1250, decimals: 0), unit: .kilogram), "1250 kg"),
            ("3103001250", "Net weight (kg)", Measure(value: ScaledDecimal(units: 1250, decimals: 3), unit: .kilogram), "1.250 kg"),
            ("3105001250", "Net weight (kg)", Measure(value: ScaledDecimal(units: 1250, decimals: 5), unit: .kilogram), "0.01250 kg"),
            ("3202000150", "Net weight (lb)", Measure(value: ScaledDecimal(units: 150, decimals: 2), unit: .pound), "1.50 lb"),
            ("3111000250", "Length (m)", Measure(value: ScaledDecimal(units: 250, decimals: 1), unit: .metre), "25.0 m"),
            ("3302012345", "Gross weight (kg)", Measure(value: ScaledDecimal(units: 12345, decimals: 2), unit: .kilogram), "123.45 kg"),
            ("3313000900", "Length (m), logistics", Measure(value: ScaledDecimal(units: 900, decimals: 3), unit: .metre), "0.900 m"),
            ("3150000750", "Net volume (l)", Measure(value: ScaledDecimal(units: 750, decimals: 0), unit: .litre), "750 l"),
            ("3371000025", "Kilograms per m²", Measure(value: ScaledDecimal(units: 25, decimals: 1), unit: .kilogramPerSquareMetre), "2.5 kg/m²"),
            ("3560000100", "Net weight (oz t)", Measure(value: ScaledDecimal(units: 100, decimals: 0), unit: .troyOunce), "100 oz t"),
            ("3612000399", "Net volume (gal)", Measure(value: ScaledDecimal(units: 399, decimals: 2), unit: .usGallon), "3.99 gal"),
            ("3695123456", "Volume (yd³), logistics", Measure(value: ScaledDecimal(units: 123456, decimals: 5), unit: .cubicYard), "1.23456 yd³"),
        ])
    func measures(data: String, title: String, measure: Measure, text: String) {
        let found = element("]C1" + data)
        #expect(found == GS1Element(ai: String(data.prefix(4)), title: title, raw: String(data.dropFirst(4)), value: .measure(measure)))
        #expect(found?.value.text == text)
    }

    @Test("measures are 6 digits, and n above 5 is no AI")
    func measureErrors() {
        #expect(errorMessage("]C1310300125") == "AI (3103): 5 digits, needs 6")
        #expect(errorMessage("]C13106001250") == "unknown AI (3106)")
        #expect(errorMessage("]C13103001A50") == "AI (3103): “A” is not a digit")
    }

    @Test("amounts (390n–393n) keep the decimals and the currency")
    func amounts() {
        #expect(element("]C139221299")?.value == .amount(Amount(value: ScaledDecimal(units: 1299, decimals: 2))))
        #expect(element("]C139329781299")?.value == .amount(Amount(value: ScaledDecimal(units: 1299, decimals: 2), currencyCode: "978")))
        #expect(element("]C139329781299")?.value.text == "12.99 (currency 978)")
    }

    // MARK: - 400, 401, 403

    @Test("order number (400), consignment (401) and routing code (403) are up to 30 characters")
    func references() {
        let result = parse("]C1400PO-2024/77" + gs + "4019506000ABC" + gs + "403ROUTE 66")
        #expect(pairs(result) == ["(400)PO-2024/77", "(401)9506000ABC"])
        #expect(result.error == .gs1(.badCharacter(ai: "403", character: " ", set: .cset82)))
        let good = parse("]C1400PO-2024/77" + gs + "4019506000ABC" + gs + "403ROUTE66")
        #expect(good.elements.map(\.title) == ["Order number", "Consignment (GINC)", "Routing code"])
        #expect(errorMessage("]C1400" + String(repeating: "9", count: 31)) == "AI (400): more than 30 characters")
    }

    // MARK: - 8200

    @Test("product URL (8200) takes up to 70 characters of set 82")
    func productURL() {
        let result = parse("]Q30109506000134352" + "8200http://example.com/p?x=1")
        #expect(result.error == nil)
        #expect(result.element("8200") == GS1Element(ai: "8200", title: "Product URL", raw: "http://example.com/p?x=1", value: .text("http://example.com/p?x=1")))
        #expect(errorMessage("]Q38200" + String(repeating: "a", count: 71)) == "AI (8200): more than 70 characters")
    }

    // MARK: - Structure

    @Test(
        "unknown AIs are named with as many digits as AIs with that prefix have",
        arguments: [
            ("]C1891234", "unknown AI (89)"),
            ("]C12391234", "unknown AI (239)"),  // 23x AIs have three digits
            ("]C1719912", "unknown AI (719)"),
            ("]C108123", "unknown AI (08)"),
            ("]C10109506000134352ABC", "expected an AI (2 to 4 digits) but found “ABC”"),
        ])
    func unknownAIs(input: String, message: String) {
        #expect(errorMessage(input) == message)
    }

    @Test("elements before an error are kept, and the input is never changed")
    func partialResult() {
        let input = "]C1010950600013435217201232" + "10ABC"
        let result = parse(input)
        #expect(pairs(result) == ["(01)09506000134352"])
        #expect(result.error == .gs1(.badDate(ai: "17", problem: .day(32))))
        #expect(result.input == input)
        #expect(result.code == "010950600013435217201232" + "10ABC")
    }

    @Test("FNC1 in first position sent as a leading 0x1D marks GS1 data without an AIM identifier")
    func leadingSeparator() {
        let result = parse(gs + "0109506000134352" + "10ABC" + gs + "17201225")
        #expect(result.symbology == .gs1ElementString)
        #expect(pairs(result) == ["(01)09506000134352", "(10)ABC", "(17)201225"])
    }

    @Test("a stand-in separator set in the options ends a variable value like 0x1D")
    func standIn() {
        let input = "0109506000134352" + "10ABC~17201225"
        #expect(pairs(parse(input, options(standIn: "~"))) == ["(01)09506000134352", "(10)ABC", "(17)201225"])
        // Without the option the "~" is data, which set 82 does not have.
        #expect(parse(input).symbology == .freeText)
        #expect(parse("]C1" + input).error == .gs1(.badCharacter(ai: "10", character: "~", set: .cset82)))
    }

    @Test("unmarked digits read as GS1 only when they read cleanly and are no plain code's length")
    func unmarked() {
        #expect(parse("0109506000134352" + "17201225").symbology == .gs1ElementString)
        #expect(parse("0109506000134352").symbology == .gs1ElementString)  // 16 digits
        #expect(parse("4006381333931").symbology == .ean13)  // "40" would be an AI prefix
        #expect(parse("0109506000134355" + "17201225").symbology == .freeText)  // bad check: just text
        #expect(parse("0109506000134355", options(allowFreeText: false)).error == .unsupportedLength(digits: 16))
    }
}
