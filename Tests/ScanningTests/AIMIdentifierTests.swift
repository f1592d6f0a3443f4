import Scanning
import Testing

@Suite("AIM symbology identifiers")
struct AIMIdentifierTests {
    @Test(
        "identifiers from the ISO/IEC 15424 table name their symbology",
        arguments: [
            ("]C1", ScanSymbology.gs1128), ("]C0", .code128), ("]C2", .code128), ("]C4", .code128),
            ("]E0", .ean13), ("]E4", .ean8), ("]E3", .ean13),
            ("]d2", .gs1DataMatrix), ("]d5", .gs1DataMatrix), ("]d1", .dataMatrix), ("]d0", .dataMatrix),
            ("]Q3", .gs1QR), ("]Q4", .gs1QR), ("]Q1", .qr), ("]Q0", .qr),
            ("]e0", .gs1DataBar), ("]e1", .gs1DataBar),
            ("]J1", .gs1DotCode), ("]J0", .dotCode),
            ("]I1", .interleaved2of5), ("]I0", .interleaved2of5),
            ("]A0", .code39), ("]A7", .code39), ("]G0", .code93), ("]F0", .codabar), ("]H0", .code11),
            ("]L0", .pdf417), ("]z0", .aztec), ("]U0", .maxiCode), ("]M0", .msi), ("]P0", .plessey),
            ("]B0", .telepen), ("]S0", .standard2of5), ("]R0", .standard2of5), ("]h0", .hanXin),
            ("]X0", .otherBarcode), ("]Z0", .nonBarcode),
        ])
    func table(prefix: String, symbology: ScanSymbology) {
        let (aim, rest) = AIMIdentifier.split(Substring(prefix + "DATA"))
        #expect(aim?.text == prefix)
        #expect(aim?.symbology == symbology)
        #expect(rest == "DATA")
    }

    @Test("a bracket that is no identifier stays part of the text", arguments: ["]xyz", "]W0abc", "]", "]C", "]C-abc", "abc"])
    func notIdentifier(text: String) {
        let (aim, rest) = AIMIdentifier.split(Substring(text))
        #expect(aim == nil)
        #expect(rest == Substring(text))
        #expect(parse(text).code == text)
    }

    @Test(
        "the identifier is stripped from the code and kept as the symbology",
        arguments: [
            ("]E04006381333931", ScanSymbology.ean13, "4006381333931"),
            ("]E0036000291452", .upcA, "036000291452"),
            ("]E001234565", .upcE, "01234565"),
            ("]E09780306406157", .isbn13, "9780306406157"),
            ("]X09780306406157", .isbn13, "9780306406157"),
            ("]E49638507" + "4", .ean8, "96385074"),
            ("]C0ABC-123", .code128, "ABC-123"),
            ("]A0CODE39", .code39, "CODE39"),
            ("]Q1hello world", .qr, "hello world"),
            ("]C04006381333931", .code128, "4006381333931"),  // digits in Code 128 are not an EAN
        ])
    func stripped(input: String, symbology: ScanSymbology, code: String) {
        let result = parse(input)
        #expect(result.error == nil)
        #expect(result.symbology == symbology)
        #expect(result.code == code)
        #expect(result.aim?.text == String(input.prefix(3)))
        #expect(result.input == input)
    }

    @Test("]E3 splits the EAN/UPC add-on from the code")
    func addOn() {
        let book = parse("]E3978030640615751299")
        #expect(book.symbology == .isbn13)
        #expect(book.code == "9780306406157")
        #expect(book.addOn == "51299")
        #expect(book.description == "ISBN-13 9780306406157 + 51299")
        let magazine = parse("]E3977123456700312")
        #expect(magazine.symbology == .issn13)
        #expect(magazine.addOn == "12")
        #expect(parse("]E3978030640615851299").error == .badCheckDigit(symbology: .isbn13, expected: "7", found: "8"))
    }

    @Test("an EAN identifier with a length no EAN has is refused")
    func eanLength() {
        #expect(parse("]E012345").error == .wrongLengthFor(symbology: .ean13, length: 5))
        #expect(ScanError.wrongLengthFor(symbology: .ean8, length: 7).message == "7 characters is not a length EAN-8 has.")
    }

    @Test("a GS1 identifier marks the data as GS1 even when it is only digits")
    func gs1Marked() {
        // 16 digits with no identifier would be read the same; with one the error is reported.
        let result = parse("]C10109506000134355")
        #expect(result.error == .gs1(.badCheckDigit(ai: "01", expected: 2, found: 5)))
        #expect(result.error?.message == "AI (01): check digit should be 2, not 5.")
    }
}
