import Scanning
import Testing

/// The AI table is data; these check it against the rules of the GS1 General Specifications so a
/// typo in a row shows up here rather than on a label.
@Suite("AI table")
struct AITableTests {
    private var all: [AIDefinition] { Array(AITable.definitions.values) }

    @Test(
        "the AIs the issue names are all there with their formats",
        arguments: [
            ("00", 18...18), ("01", 14...14), ("02", 14...14), ("10", 1...20), ("11", 6...6), ("13", 6...6),
            ("15", 6...6), ("16", 6...6), ("17", 6...6), ("21", 1...20), ("30", 1...8), ("37", 1...8),
            ("3100", 6...6), ("3695", 6...6), ("400", 1...30), ("401", 1...30), ("403", 1...30),
            ("410", 13...13), ("411", 13...13), ("412", 13...13), ("413", 13...13), ("414", 13...13), ("415", 13...13),
            ("8200", 1...70),
        ])
    func issueAIs(ai: String, length: ClosedRange<Int>) {
        #expect(AITable.definition(for: ai)?.valueLength == length)
    }

    @Test("AIs are prefix-free: all AIs starting with the same two digits have one length")
    func prefixFree() {
        var lengths: [String: Set<Int>] = [:]
        for ai in AITable.definitions.keys { lengths[String(ai.prefix(2)), default: []].insert(ai.count) }
        #expect(lengths.values.allSatisfy { $0.count == 1 })
        #expect(AITable.aiLength(forPrefix: "31") == 4)
        #expect(AITable.aiLength(forPrefix: "41") == 3)
        #expect(AITable.aiLength(forPrefix: "05") == nil)
    }

    @Test("every AI with a predefined length has exactly that length (GS1 figure 7.8.5-2)")
    func predefinedLengths() {
        for definition in all {
            guard let fixed = AITable.predefinedValueLength(forPrefixOf: definition.ai) else { continue }
            #expect(definition.valueLength == fixed...fixed, "AI (\(definition.ai))")
        }
        let predefined = Set(all.filter { AITable.predefinedValueLength(forPrefixOf: $0.ai) != nil }.map { String($0.ai.prefix(2)) })
        // The prefixes the GS1 Barcode Syntax Dictionary flags "*" (no separator needed).
        #expect(predefined == ["00", "01", "02", "03", "11", "12", "13", "15", "16", "17", "20", "31", "32", "33", "34", "35", "36", "41"])
    }

    @Test("only the last component varies in length, and optional components come last")
    func componentShape() {
        for definition in all {
            let components = definition.components
            #expect(!components.isEmpty, "AI (\(definition.ai))")
            for (index, component) in components.enumerated() where index < components.count - 1 {
                #expect(
                    component.length.lowerBound == component.length.upperBound || components[index + 1].isOptional,
                    "AI (\(definition.ai))")
            }
            if let firstOptional = components.firstIndex(where: \.isOptional) {
                let optionalTail = components[firstOptional...].allSatisfy { $0.isOptional }
                #expect(optionalTail, "AI (\(definition.ai))")
            }
        }
    }

    @Test("every AI has a title and digits only; measures and amounts say their decimals")
    func titles() {
        for definition in all {
            #expect(!definition.title.isEmpty)
            #expect((2...4).contains(definition.ai.count) && definition.ai.allSatisfy(\.isNumber))
            switch definition.meaning {
            case .measure, .amount: #expect(definition.impliedDecimals == definition.ai.last?.wholeNumberValue)
            default: #expect(definition.impliedDecimals == nil)
            }
        }
    }

    @Test("the Digital Link primary keys are the GS1 keys")
    func digitalLinkKeys() {
        let keys = Set(all.filter(\.isDigitalLinkKey).map(\.ai))
        #expect(keys == ["00", "01", "253", "255", "401", "402", "414", "415", "417", "8003", "8004", "8006", "8010", "8013", "8017", "8018"])
    }

    @Test(
        "measure titles carry their unit",
        arguments: [
            ("3100", "Net weight (kg)", MeasureUnit.kilogram), ("3200", "Net weight (lb)", .pound),
            ("3300", "Gross weight (kg)", .kilogram), ("3400", "Gross weight (lb)", .pound),
            ("3140", "Area (m²)", .squareMetre), ("3160", "Net volume (m³)", .cubicMetre),
            ("3570", "Net volume (oz)", .ounce), ("3600", "Net volume (qt)", .usQuart),
        ])
    func measureUnits(ai: String, title: String, unit: MeasureUnit) {
        #expect(AITable.definition(for: ai)?.title == title)
        #expect(AITable.definition(for: ai)?.meaning == .measure(unit))
    }

    @Test("character sets hold exactly their characters")
    func characterSets() {
        let cset82 = "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
        #expect(cset82.count == 82)
        let printable = (0x20...0x7E).compactMap(UnicodeScalar.init).map(Character.init)
        #expect(printable.filter(AICharacterSet.cset82.contains) == Array(cset82))
        #expect(printable.filter(AICharacterSet.cset39.contains) == Array("#-/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        #expect(printable.filter(AICharacterSet.numeric.contains) == Array("0123456789"))
        #expect(!AICharacterSet.cset82.contains("é"))
        #expect(!AICharacterSet.numeric.contains("٣"))
    }
}

@Suite("AI table size")
struct AITableSizeTests {
    @Test("docs/scanning.md's count of AIs is the table's")
    func count() {
        #expect(AITable.definitions.count == 541)
    }
}
