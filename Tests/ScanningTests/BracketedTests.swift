import Scanning
import Testing

@Suite("GS1 human-readable (bracketed) form")
struct BracketedTests {
    @Test("the brief's example and GS1's classic GS1-128 example")
    func examples() {
        let result = parse("(01)09506000134352(17)201225(10)ABC123")
        #expect(result.symbology == .gs1ElementString)
        #expect(result.gs1Form == .bracketed)
        #expect(result.description == "GTIN 09506000134352 · exp 2020-12-25 · lot ABC123")
        #expect(result.bracketedText == "(01)09506000134352(17)201225(10)ABC123")

        // GS1 General Specifications' fixed-measure example: GTIN and net weight 0.123 kg.
        let weighed = parse("(01)95012345678903(3103)000123")
        #expect(weighed.error == nil)
        #expect(weighed.element("3103")?.value == .measure(Measure(value: ScaledDecimal(units: 123, decimals: 3), unit: .kilogram)))
        #expect(weighed.description == "GTIN 95012345678903 · net weight 0.123 kg")
    }

    @Test(
        "GS1 Syntax Engine cases",
        arguments: [
            (
                "(01)12345678901231(10)ABC123(21)XYZ(8200)https://a.example/x",
                ["(01)12345678901231", "(10)ABC123", "(21)XYZ", "(8200)https://a.example/x"]
            ),
            ("(01)12345678901231(3925)12599(3100)654321", ["(01)12345678901231", "(3925)12599", "(3100)654321"]),
            ("(01)12312312312333(10)ABC\\(123", ["(01)12312312312333", "(10)ABC(123"]),  // escaped bracket
            ("(01)12312312312333(10)ABC+123(99)XYZ+QWERTY", ["(01)12312312312333", "(10)ABC+123", "(99)XYZ+QWERTY"]),
            (
                "(253)9526064000028000001(99)000001(01)12312312312326(10)DEF(95)INT",
                ["(253)9526064000028000001", "(99)000001", "(01)12312312312326", "(10)DEF", "(95)INT"]
            ),
            ("(21)ABC123(01)12345678901231", ["(21)ABC123", "(01)12345678901231"]),
        ])
    func engineCases(input: String, expected: [String]) {
        let result = parse(input)
        #expect(result.error == nil, "\(result.error?.message ?? "")")
        #expect(pairs(result) == expected)
    }

    @Test(
        "refusals name the AI",
        arguments: [
            ("(01)12312312312334", "AI (01): check digit should be 3, not 4"),
            ("(01)123456789012312(10)12345", "AI (01): 15 digits, needs 14"),
            ("(01)12312312312326(99)000001(89)XXX(95)INT", "unknown AI (89)"),
            ("(01)12312312312326(10)ABC123(10)ABC124", "AI (10) appears twice with different values"),
            ("(17)201232", "AI (17): day 32 is not a date"),
            ("(10)", "AI (10): the value is empty"),
        ])
    func refusals(input: String, message: String) {
        guard case let .gs1(error)? = parse(input).error else {
            Issue.record("\(input) was not refused")
            return
        }
        #expect(error.message == message)
    }

    @Test("spaces around values, as printed under barcodes, are ignored")
    func printedSpaces() {
        #expect(pairs(parse("(01) 09506000134352 (10) ABC123")) == ["(01)09506000134352", "(10)ABC123"])
    }

    @Test("a bracket inside a value that does not start an AI stays in the value")
    func looseBracket() {
        #expect(pairs(parse("(10)A(B)C(21)12")) == ["(10)A(B)C", "(21)12"])
    }

    @Test("bracketedText escapes brackets so it reads back the same")
    func roundTripEscapes() {
        let result = parse("(01)12312312312333(10)ABC\\(123")
        #expect(result.bracketedText == "(01)12312312312333(10)ABC\\(123")
        #expect(pairs(parse(result.bracketedText ?? "")) == pairs(result))
    }

    @Test("text that only starts with a bracket is not GS1", arguments: ["(hello)", "(1)23", "(12345)6"])
    func notBracketed(input: String) {
        #expect(parse(input).symbology == .freeText)
    }
}

@Suite("Bracketed text that is not GS1")
struct BracketedProseTests {
    @Test("prose and phone numbers in brackets stay free text", arguments: ["(555) 123-4567", "(12) Monkeys", "(10)AB#C"])
    func prose(input: String) {
        let result = parse(input)
        #expect(result.symbology == .freeText)
        #expect(result.error == nil)
        #expect(parse(input, options(allowFreeText: false)).error == .notACode)
    }

    @Test("a GS1 string gone wrong the GS1 way is still reported")
    func gs1Mistakes() {
        #expect(parse("(01)0950600013435").error == .gs1(.wrongLength(ai: "01", found: 13, allowed: 14...14, numeric: true)))
        #expect(parse("(01)09506000134352(12) Monkeys").error == .gs1(.badCharacter(ai: "12", character: "M", set: .numeric)))
        #expect(parse("]Q3(12) Monkeys").error == .gs1(.badCharacter(ai: "12", character: "M", set: .numeric)))
    }

    @Test("a barcode that says it is not GS1 is not read as raw GS1 data")
    func notGS1Identifier() {
        let result = parse("]C00109506000134352" + "10ABC" + gs + "17201225")
        #expect(result.symbology == .code128)
        #expect(result.elements.isEmpty)
        #expect(result.error == nil)
    }
}
