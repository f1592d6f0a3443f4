import Scanning
import Testing

/// Golden cases from the GS1 Barcode Syntax Resource: the test vectors of the GS1 Syntax Engine
/// (github.com/gs1/gs1-syntax-engine, src/c-lib/ai.c, scandata.c and dl.c), whose `^` is FNC1.
/// Each is fed as a scanner sends it (`]C1`, then 0x1D for FNC1) and must be accepted or refused
/// as the reference implementation does.
@Suite("GS1 Barcode Syntax Resource examples")
struct GS1SyntaxResourceTests {
    // MARK: - Element strings (ai.c, test_ai_processAIdata)

    @Test(
        "element strings the reference accepts are read",
        arguments: [
            "^991234",
            "^0112345678901231",
            "^0112345678901231^",  // superfluous FNC1 tolerated
            "^0112345678901231991234",  // fixed length runs into the next AI
            "^0112345678901231^991234",
            "^2421", "^24212", "^242123", "^2421234", "^24212345", "^242123456",
            "^242123456^10ABC123",
            "^242123456^",
            "^81111234",
            "^81111234^10ABC123",
            "^800112341234512398",
            "^800112341234512398^0112345678901231",
            "^7007211225211231",
            "^7007211225",
            "^800302112345678900ABC",
            "^800302112345678900",
            "^800302112345678900^10ABC123",
            "^800302112345678900ABCDEFGHIJKLMNOP",
            "^7230121234567890123456789012345678",
            "^7230123",
            "^235ABC",
            "^235ABCDEFGHIJKLMNOPQRSTUVWXYZ12",
            "^0112345678901231235XYZ",
            "^0112345678901231235XYZ^10BATCH",
            "^423528", "^423528528", "^423528528528", "^423528528528528", "^423528528528528528",
        ])
    func accepted(engineNotation: String) {
        let result = parse(scannerData(engineNotation))
        #expect(result.error == nil, "\(engineNotation): \(result.error?.message ?? "")")
        #expect(result.symbology == .gs1128)
        #expect(result.gs1Form == .elementString)
    }

    @Test(
        "element strings the reference refuses are refused",
        arguments: [
            "^891234",  // no such AI
            "^99~ABC",  // not in character set 82
            "^99ABC~",
            "^01A2345678901231",  // letter in a numeric AI
            "^011234567890123A",
            "^0112345678901234",  // wrong check digit
            "^011234567890123",  // too short
            "^01123456789012312",  // leftover "2" is no AI
            "^011234567890123^",
            "^01123456789012345^",
            "^01123456789012345^991234",
            "^2421234567",  // N..6 too long
            "^8111123", "^811112345",  // N4 too short, too long
            "^80011234123451239", "^8001123412345123981",
            "^80011234123451239^0112345678901231",
            "^70072112252", "^700721122521", "^7007211225211", "^70072112252112", "^700721122521123",
            "^70072112252212311",
            "^800302112345678901ABC",  // check digit of the N13 component
            "^800302112345678900ABCDEFGHIJKLMNOPQ",  // X..16 too long
            "^72301212345678901234567890123456789",
            "^723012",
            "^235ABCDEFGHIJKLMNOPQRSTUVWXYZ123",
            "^4235", "^42352", "^4235285", "^42352852", "^4235285285", "^42352852852", "^4235285285285",
            "^42352852852852", "^4235285285285285", "^42352852852852852", "^4235285285285285285",
        ])
    func refused(engineNotation: String) {
        let result = parse(scannerData(engineNotation))
        #expect(result.error != nil, "\(engineNotation) was accepted")
        #expect(result.input == scannerData(engineNotation))
    }

    // MARK: - Scan data with symbology identifiers (scandata.c)

    @Test(
        "scan data with AIM identifiers reads to the reference's AI data",
        arguments: [
            ("]Q3011231231231233310ABC123" + gs + "99TESTING", ScanSymbology.gs1QR, ["(01)12312312312333", "(10)ABC123", "(99)TESTING"]),
            ("]d2011231231231233310ABC123" + gs + "99TESTING", .gs1DataMatrix, ["(01)12312312312333", "(10)ABC123", "(99)TESTING"]),
            ("]J1011231231231233310ABC123" + gs + "99TESTING", .gs1DotCode, ["(01)12312312312333", "(10)ABC123", "(99)TESTING"]),
            (
                "]e0011231231231233310ABC123" + gs + "99TESTING" + gs + "98XYZ", .gs1DataBar,
                ["(01)12312312312333", "(10)ABC123", "(99)TESTING", "(98)XYZ"]
            ),
            (
                "]e0011231231231233310ABC123" + gs + "1199122598TESTING" + gs + "97XYZ", .gs1DataBar,
                ["(01)12312312312333", "(10)ABC123", "(11)991225", "(98)TESTING", "(97)XYZ"]
            ),
            ("]e00112312312312333235XYZ" + gs + "10ABC", .gs1DataBar, ["(01)12312312312333", "(235)XYZ", "(10)ABC"]),
            ("]C1011231231231233310ABC123" + gs + "99TESTING", .gs1128, ["(01)12312312312333", "(10)ABC123", "(99)TESTING"]),
            ("]C10112312312312333235XYZ", .gs1128, ["(01)12312312312333", "(235)XYZ"]),
            ("]d2011231231231233310ABC123" + gs + "99TESTING" + gs, .gs1DataMatrix, ["(01)12312312312333", "(10)ABC123", "(99)TESTING"]),
        ])
    func scanData(input: String, symbology: ScanSymbology, expected: [String]) {
        let result = parse(input)
        #expect(result.error == nil)
        #expect(result.symbology == symbology)
        #expect(pairs(result) == expected)
    }

    @Test(
        "plain-data identifiers keep their content as it is",
        arguments: [
            ("]Q1TESTING", ScanSymbology.qr, "TESTING"),
            ("]d1TESTING", .dataMatrix, "TESTING"),
            ("]J0TESTING", .dotCode, "TESTING"),
        ])
    func plainData(input: String, symbology: ScanSymbology, code: String) {
        let result = parse(input)
        #expect(result == ScanResult(input: input, symbology: symbology, aim: result.aim, code: code))
    }

    @Test(
        "EAN identifiers check length, digits and check digit",
        arguments: [
            ("]E02112345678900", true),
            // The reference wants 13 digits after ]E0; scanners set to send UPC-A as 12 digits exist, so
            // tabshell reads 12 as UPC-A (and 123456789012 is a valid one).
            ("]E0123456789012", true),
            ("]E012345678901234", false),  // too long
            ("]E01234ABC890123", false),  // not digits
            ("]E02112345678901", false),  // bad check digit
            ("]E402345673", true),
            ("]E41234567", false),
            ("]E4123456789", false),
            ("]E412ABC678", false),
            ("]E402345674", false),
        ])
    func eanIdentifiers(input: String, accepted: Bool) {
        #expect(parse(input).isValid == accepted, "\(input)")
    }

    @Test("identifiers with no data after them are refused", arguments: ["]Q3", "]d2", "]e0", "]C1", "]E0", "]E4"])
    func emptyAfterIdentifier(input: String) {
        guard case .nothingAfterPrefix? = parse(input).error else {
            Issue.record("\(input) was not refused as empty")
            return
        }
    }

    @Test(
        "a QR Code with a Digital Link URI is read as GS1 data",
        arguments: [
            "]Q1https://example.com/01/12312312312333?99=TEST",
            "]Q1HTTPS://example.com/01/12312312312333?99=TEST",
            "]d1https://example.com/01/12312312312333?99=TEST",
        ])
    func digitalLinkInQR(input: String) {
        let result = parse(input)
        #expect(result.gs1Form == .digitalLink)
        #expect(pairs(result) == ["(01)12312312312333", "(99)TEST"])
        #expect(!result.symbology.carriesGS1)
    }
}
