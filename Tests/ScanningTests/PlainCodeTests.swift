import PropertyBased
import Scanning
import Testing

@Suite("Plain codes and their check digits")
struct PlainCodeTests {
    // MARK: - Valid codes, one or more per symbology

    @Test(
        "valid codes are read with their symbology",
        arguments: [
            ("4006381333931", ScanSymbology.ean13),
            ("5901234123457", .ean13),
            ("96385074", .ean8),
            ("55123457", .ean8),
            ("07654329", .ean8),  // starts with 0 but fails as UPC-E
            ("036000291452", .upcA),
            ("012345678905", .upcA),
            ("01234565", .upcE),
            ("04252614", .upcE),
            ("10012345678902", .gtin14),
            ("00012345678905", .gtin14),
            ("9780306406157", .isbn13),
            ("9791234567896", .isbn13),
            ("978-0-306-40615-7", .isbn13),
            ("0306406152", .isbn10),
            ("0-306-40615-2", .isbn10),
            ("080442957X", .isbn10),
            ("080442957x", .isbn10),
            ("03178471", .issn),
            ("0317-8471", .issn),
            ("2049-3630", .issn),
            ("2434-561X", .issn),
            ("9771234567003", .issn13),
        ])
    func valid(code: String, symbology: ScanSymbology) {
        let result = parse(code)
        #expect(result == ScanResult(input: code, symbology: symbology, code: code))
    }

    @Test("ITF-14 is told apart from GTIN-14 by its AIM identifier")
    func itf14() {
        let result = parse("]I110012345678902")
        #expect(result.symbology == .itf14)
        #expect(result.code == "10012345678902")
        #expect(result.gtin == "10012345678902")
        #expect(parse("]I110012345678903").error == .badCheckDigit(symbology: .itf14, expected: "2", found: "3"))
        // Other lengths are plain Interleaved 2 of 5, no check digit known.
        #expect(parse("]I01234").symbology == .interleaved2of5)
    }

    // MARK: - One wrong digit each

    @Test(
        "a wrong check digit names the symbology and the digit it should be",
        arguments: [
            ("4006381333932", ScanSymbology.ean13, Character("1"), Character("2")),
            ("96385070", .ean8, "4", "0"),
            ("036000291459", .upcA, "2", "9"),
            ("10012345678900", .gtin14, "2", "0"),
            ("9780306406158", .isbn13, "7", "8"),
            ("9771234567004", .issn13, "3", "4"),
            ("0-306-40615-3", .isbn10, "2", "3"),
            ("0804429579", .isbn10, "X", "9"),
            ("2434-5619", .issn, "X", "9"),
            ("0317-8472", .issn, "1", "2"),
        ])
    func badCheckDigit(code: String, symbology: ScanSymbology, expected: Character, found: Character) {
        let result = parse(code, options(allowFreeText: false))
        let error = ScanError.badCheckDigit(symbology: symbology, expected: expected, found: found)
        #expect(result.error == error)
        #expect(error.message == "Bad check digit for \(symbology.title): the last digit is \(found), it should be \(expected).")
    }

    @Test("UPC-E with a wrong check digit is refused as EAN-8 (as CaptureMode did)")
    func upcEWrongDigit() {
        // 01234565 is UPC-E; 01234566 fails as UPC-E, EAN-8 and ISSN.
        #expect(parse("01234566").error == .badCheckDigit(symbology: .ean8, expected: "5", found: "6"))
    }

    @Test("ten digits that fail ISBN-10 are free text when allowed, refused as ISBN-10 when not")
    func tenDigits() {
        #expect(parse("0306406153").symbology == .freeText)
        #expect(parse("0306406153", options(allowFreeText: false)).error == .badCheckDigit(symbology: .isbn10, expected: "2", found: "3"))
    }

    // MARK: - What Domain.BarcodeValidator did, unchanged

    @Test("free text off: letters are not a code, unknown lengths say so, blank asks for a code")
    func freeTextOff() {
        let strict = options(allowFreeText: false)
        #expect(parse("ABC-123", strict).error == .notACode)
        #expect(parse("12345", strict).error == .unsupportedLength(digits: 5))
        #expect(parse("４００６３８１３３３９３１", strict).error == .notACode)
        #expect(parse("   ", strict).error == .empty)
        #expect(ScanError.unsupportedLength(digits: 5).message.hasPrefix("5 digits"))
        #expect(ScanError.empty.message == "Type or scan a code, then press Enter.")
    }

    @Test("free text on: anything else is text")
    func freeTextOn() {
        #expect(parse("ABC-123") == ScanResult(input: "ABC-123", symbology: .freeText, code: "ABC-123"))
        #expect(parse("12345").symbology == .freeText)
    }

    @Test("surrounding spaces and the scanner's Enter or Tab are trimmed; the input is kept")
    func trimming() {
        let result = parse("  4006381333931 \r\n")
        #expect(result.code == "4006381333931")
        #expect(result.input == "  4006381333931 \r\n")
        #expect(parse("4006381333931\t").symbology == .ean13)
    }

    @Test("input longer than the limit is refused even as free text")
    func tooLong() {
        let limit = ScanOptions.defaultMaximumLength
        #expect(parse(String(repeating: "a", count: limit)).error == nil)
        #expect(parse(String(repeating: "a", count: limit + 1)).error == .tooLong(limit: limit))
    }

    // MARK: - GTIN of a plain code

    @Test(
        "gtin is the 14-digit GTIN the code is",
        arguments: [
            ("4006381333931", "04006381333931"),
            ("036000291452", "00036000291452"),
            ("96385074", "00000096385074"),
            ("01234565", "00012345000065"),  // UPC-E expanded to UPC-A 012345000065
            ("10012345678902", "10012345678902"),
            ("9780306406157", "09780306406157"),
        ])
    func gtin(code: String, gtin: String) {
        #expect(parse(code).gtin == gtin)
    }

    @Test("ISBN-10 and ISSN have no GTIN of their own")
    func noGTIN() {
        #expect(parse("0306406152").gtin == nil)
        #expect(parse("0317-8471").gtin == nil)
    }

    // MARK: - Check digit algorithms

    @Test("mod-11 check characters of the published ISBN and ISSN examples")
    func mod11() {
        #expect(CheckDigit.mod11(of: [0, 3, 0, 6, 4, 0, 6, 1, 5]) == "2")
        #expect(CheckDigit.mod11(of: [0, 8, 0, 4, 4, 2, 9, 5, 7]) == "X")
        #expect(CheckDigit.mod11(of: [0, 3, 1, 7, 8, 4, 7]) == "1")
        #expect(CheckDigit.mod11(of: [2, 4, 3, 4, 5, 6, 1]) == "X")
    }

    @Test("UPC-E expands to its UPC-A form")
    func upcEExpansion() {
        #expect(UPCE.expand([0, 1, 2, 3, 4, 5, 6, 5]) == [0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 6, 5])
        #expect(UPCE.expand([0, 4, 2, 5, 2, 6, 1, 4]) == [0, 4, 2, 1, 0, 0, 0, 0, 5, 2, 6, 4])
        #expect(UPCE.expand([0, 1, 2]) == nil)
    }

    @Test("any payload plus its GS1 check digit reads, as the symbology of its length", arguments: [12, 13, 14])
    func anyPayloadReads(length: Int) async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...9).array(of: length - 1)) { payload in
            let code = (payload + [CheckDigit.gs1(of: payload)]).map(String.init).joined()
            let result = parse(code)
            #expect(result.error == nil, "\(code)")
            #expect(result.gtin == code.leftPadded14)
        }
    }

    @Test("changing any one digit of a valid GTIN-13 is caught")
    func singleDigitErrors() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...9).array(of: 12), Gen.int(in: 0...12), Gen.int(in: 1...9)) {
            payload, position, delta in
            var digits = payload + [CheckDigit.gs1(of: payload)]
            digits[position] = (digits[position] + delta) % 10
            let code = digits.map(String.init).joined()
            guard case .badCheckDigit? = parse(code).error else {
                Issue.record("\(code) (digit \(position) changed) was accepted")
                return
            }
        }
    }

    @Test("changing any one digit of a valid ISBN-10 is caught")
    func isbn10SingleDigitErrors() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...9).array(of: 9), Gen.int(in: 0...8), Gen.int(in: 1...9)) {
            payload, position, delta in
            var digits = payload
            digits[position] = (digits[position] + delta) % 10
            let code = payload.map(String.init).joined() + String(CheckDigit.mod11(of: payload))
            let changed = digits.map(String.init).joined() + String(CheckDigit.mod11(of: payload))
            #expect(parse(code).symbology == .isbn10)
            #expect(parse(changed).symbology != .isbn10, "\(changed)")
        }
    }
}

private extension String {
    var leftPadded14: String { String(repeating: "0", count: max(0, 14 - count)) + self }
}
