import PropertyBased
import Scanning
import Testing

@Suite("GS1 properties")
struct GS1PropertyTests {
    private static let seeds = Gen.uint64(in: 0...UInt64.max)

    @Test("any valid element string reads back to the same fields in all three forms")
    func threeForms() async {
        await propertyCheck(count: 400, input: Self.seeds, Gen.int(in: 1...7), Gen.int(in: 0...2)) { seed, count, keyChoice in
            var random = ElementSamples.Seeded(state: seed ^ 0x5EED)
            let key = ElementSamples.value(for: ["01", "00", "414"][keyChoice], &random)
            let others = ElementSamples.elements(seed: seed, count: count).filter { $0.ai != key.ai }
            let elements = [key] + others
            let expected = elements.map { "(\($0.ai))\($0.value)" }

            let raw = parse(GS1Forms.raw(elements))
            let bracketed = parse(GS1Forms.bracketed(elements))
            let link = parse(GS1Forms.digitalLink(key: key, others))
            for (form, result) in [("raw", raw), ("bracketed", bracketed), ("Digital Link", link)] {
                #expect(result.error == nil, "\(form) \(result.input.debugDescription): \(result.error?.message ?? "")")
                #expect(pairs(result) == expected, "\(form) \(result.input.debugDescription)")
            }
            // Same typed values and titles, whatever the form.
            #expect(raw.elements == bracketed.elements)
            #expect(raw.elements == link.elements)
            #expect(raw.bracketedText == bracketed.bracketedText)
        }
    }

    @Test("a stand-in separator works like 0x1D for any element string")
    func standInSeparator() async {
        await propertyCheck(count: 200, input: Self.seeds, Gen.int(in: 1...7), Gen.element(of: SeparatorFinding.likelyStandIns).map { $0 ?? "~" }) {
            seed, count, standIn in
            let elements = ElementSamples.elements(seed: seed, count: count)
            let result = parse(GS1Forms.raw(elements, separator: String(standIn)), options(standIn: standIn))
            #expect(result.error == nil, "\(result.input.debugDescription): \(result.error?.message ?? "")")
            #expect(pairs(result) == elements.map { "(\($0.ai))\($0.value)" })
        }
    }

    @Test("bracketedText of any result reads back to the same elements")
    func bracketedTextRoundTrip() async {
        await propertyCheck(count: 200, input: Self.seeds, Gen.int(in: 1...7)) { seed, count in
            let result = parse(GS1Forms.raw(ElementSamples.elements(seed: seed, count: count)))
            #expect(parse(result.bracketedText ?? "").elements == result.elements)
        }
    }

    @Test("one wrong check digit in any GTIN, SSCC or GLN names the AI and the right digit")
    func wrongCheckDigit() async {
        await propertyCheck(count: 300, input: Self.seeds, Gen.element(of: ["00", "01", "02", "410", "414", "415"]).map { $0 ?? "01" }, Gen.int(in: 1...9)) {
            seed, ai, delta in
            var random = ElementSamples.Seeded(state: seed)
            let good = ElementSamples.value(for: ai, &random).value
            guard let last = good.last?.wholeNumberValue else { return }
            let bad = String(good.dropLast()) + String((last + delta) % 10)
            let result = parse("]C1" + ai + bad)
            #expect(result.error == .gs1(.badCheckDigit(ai: ai, expected: last, found: (last + delta) % 10)))
        }
    }

    @Test("any input gives a result that keeps the input, and never traps")
    func neverTraps() async {
        let characters = Gen.element(of: Array("0123456789()]C1Ed2Q3e0/?=&%:hts.\u{1D}~AZaz#-X \r")).map { $0 ?? "0" }
        await propertyCheck(count: 2000, input: characters.array(of: 0...40)) { characters in
            let input = String(characters)
            let result = parse(input)
            #expect(result.input == input)
        }
    }
}
