import CaptureMode
import Domain
import PropertyBased
import Scanning
import Testing

@Suite("BarcodeValidator")
struct BarcodeValidatorTests {
    // MARK: - Accepted codes

    @Test(
        "valid codes are accepted with their symbology",
        arguments: [
            ("4006381333931", Symbology.ean13),
            ("5901234123457", .ean13),
            ("96385074", .ean8),
            ("55123457", .ean8),
            // Starts with 0 but its UPC-E check fails, so it is read as EAN-8.
            ("07654329", .ean8),
            ("036000291452", .upcA),
            ("012345678905", .upcA),
            ("01234565", .upcE),
            ("04252614", .upcE),
            ("10012345678902", .gtin14),
            ("00012345678905", .gtin14),
        ])
    func acceptsValidCode(code: String, symbology: Symbology) {
        #expect(BarcodeValidator.validate(code, allowFreeText: false) == .success(Barcode(value: code, symbology: symbology)))
    }

    @Test("the GTIN-14 examples carry their GS1 check digits")
    func gtin14ExamplesHaveComputedCheckDigits() {
        #expect(CheckDigit.gs1(of: [1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0]) == 2)
        #expect(CheckDigit.gs1(of: [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0]) == 5)
    }

    @Test("surrounding whitespace and a scanner's newline are trimmed")
    func trimsWhitespace() {
        #expect(
            BarcodeValidator.validate("  4006381333931 \r\n", allowFreeText: false)
                == .success(Barcode(value: "4006381333931", symbology: .ean13)))
    }

    // MARK: - Refused input

    @Test(
        "a bad check digit names the expected digit and the symbology",
        arguments: [
            ("4006381333932", Symbology.ean13, 1, 2),
            ("96385070", .ean8, 4, 0),
            ("036000291459", .upcA, 2, 9),
            ("10012345678900", .gtin14, 2, 0),
        ])
    func badCheckDigit(code: String, symbology: Symbology, expected: Int, found: Int) throws {
        let result = BarcodeValidator.validate(code, allowFreeText: true)
        let error = BarcodeError.badCheckDigit(symbology: symbology, expected: Character(String(expected)), found: Character(String(found)))
        #expect(result == .failure(error))
        #expect(error.message.contains(symbology.title))
        #expect(error.message.contains("should be \(expected)"))
    }

    @Test("a digit string of an unknown length is refused unless free text is allowed")
    func unsupportedLength() {
        #expect(BarcodeValidator.validate("12345", allowFreeText: false) == .failure(.unsupportedLength(digits: 5)))
        #expect(BarcodeValidator.validate("12345", allowFreeText: true) == .success(Barcode(value: "12345", symbology: .freeText)))
        #expect(BarcodeError.unsupportedLength(digits: 5).message.hasPrefix("5 digits"))
    }

    @Test("letters are not a code without free text, and free text with it")
    func letters() {
        #expect(BarcodeValidator.validate("ABC-123", allowFreeText: false) == .failure(.notACode))
        #expect(BarcodeValidator.validate("ABC-123", allowFreeText: true) == .success(Barcode(value: "ABC-123", symbology: .freeText)))
        // Digits that are not ASCII digits are not a GS1 code either.
        #expect(BarcodeValidator.validate("４００６３８１３３３９３１", allowFreeText: false) == .failure(.notACode))
    }

    @Test("empty or blank input asks for a code", arguments: ["", "   ", "\n\t"])
    func empty(input: String) {
        #expect(BarcodeValidator.validate(input, allowFreeText: true) == .failure(.empty))
    }

    @Test("input longer than the limit is refused even as free text")
    func tooLong() {
        let limit = BarcodeValidator.maximumLength
        let atLimit = String(repeating: "a", count: limit)
        #expect(BarcodeValidator.validate(atLimit, allowFreeText: true) == .success(Barcode(value: atLimit, symbology: .freeText)))
        #expect(BarcodeValidator.validate(atLimit + "a", allowFreeText: true) == .failure(.tooLong(limit: limit)))
    }

    // MARK: - Properties

    @Test("a 12-digit payload plus its check digit is a valid EAN-13")
    func checkDigitMakesValidEAN13() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...9).array(of: 12)) { payload in
            let code = (payload + [CheckDigit.gs1(of: payload)]).map(String.init).joined()
            // 978/979 read as ISBN-13 and 977 as ISSN: the EAN-13 family, each its own symbology.
            let symbology: Symbology = code.hasPrefix("978") || code.hasPrefix("979") ? .isbn13 : code.hasPrefix("977") ? .issn13 : .ean13
            #expect(BarcodeValidator.validate(code, allowFreeText: false) == .success(Barcode(value: code, symbology: symbology)))
        }
    }

    @Test("changing any one digit of a valid EAN-13 makes it fail (mod-10 catches single-digit errors)")
    func singleDigitErrorsAreDetected() async {
        await propertyCheck(count: 1000, input: Gen.int(in: 0...9).array(of: 12), Gen.int(in: 0...12), Gen.int(in: 1...9)) {
            payload, position, delta in
            var digits = payload + [CheckDigit.gs1(of: payload)]
            digits[position] = (digits[position] + delta) % 10
            let code = digits.map(String.init).joined()
            guard case .failure(.badCheckDigit(let symbology, _, _)) = BarcodeValidator.validate(code, allowFreeText: true),
                [.ean13, .isbn13, .issn13].contains(symbology)
            else {
                Issue.record("\(code) (digit \(position) changed) was accepted")
                return
            }
        }
    }
}

@Suite struct DigitGroupTests {
    @Test(arguments: ["4006 3813 3393 1", "400-638-133-393-1", "4006381 333931", " 4006 3813 3393 1 "])
    func digitGroupsAreTheDigitsTheyAre(typed: String) {
        #expect(BarcodeValidator.validate(typed, allowFreeText: false) == .success(Barcode(value: "4006381333931", symbology: .ean13)))
    }

    @Test(arguments: ["4006  3813", "4006--3813", "-4006", "4006-", "40a6 3813", "4006\t3813"])
    func otherSeparatorsAreNotSkipped(typed: String) {
        #expect(BarcodeValidator.withoutDigitGroupSeparators(typed) == typed)
    }
}

/// A scanner set to send a stand-in character for FNC1 (Settings › GS1 separator sent as).
@Suite struct SeparatorStandInTests {
    @Test func theStandInSeparatesVariableFieldsLikeGS() {
        var config = CaptureConfig()
        config.separatorStandIn = "~"
        var capture = CaptureState(config: config)
        _ = capture.send(.kindChosen(.barcode))
        _ = capture.send(.textTyped("]C1" + "0109506000134352" + "10ABC123" + "~" + "21XYZ"))
        _ = capture.send(.enterPressed)
        #expect(capture.barcode == Barcode(value: "(01)09506000134352(10)ABC123(21)XYZ", symbology: .gs1128))
    }

    @Test func withoutTheSettingTheCharacterIsData() {
        var capture = CaptureState(config: CaptureConfig())
        _ = capture.send(.kindChosen(.barcode))
        _ = capture.send(.textTyped("]C1" + "0109506000134352" + "10ABC123" + "~" + "21XYZ"))
        _ = capture.send(.enterPressed)
        #expect(capture.barcode?.value != "(01)09506000134352(10)ABC123(21)XYZ")
    }
}
