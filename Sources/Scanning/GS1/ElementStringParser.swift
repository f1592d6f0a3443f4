/// Reads raw GS1 element strings: `0109506000134352` `17201225` `10ABC123`, where a value of
/// variable length ends at a separator (FNC1, sent as 0x1D or a stand-in) or at the end.
enum ElementStringParser {
    /// The group separator scanners send for FNC1 (Ctrl-]).
    static let groupSeparator: Character = "\u{1D}"

    static func parse(_ text: Substring, separators: Set<Character>, today: CalendarDate) -> GS1Parse {
        let characters = Array(text)
        var collector = ElementCollector()
        var index = 0
        func failed(_ error: GS1Error) -> GS1Parse { GS1Parse(elements: collector.elements, error: error) }

        while index < characters.count {
            // A separator before the first AI (FNC1 in first position), after a predefined-length
            // value, or doubled is harmless: skip it.
            if separators.contains(characters[index]) {
                index += 1
                continue
            }
            let definition: AIDefinition
            switch readAI(characters, at: index) {
            case let .success(found): definition = found
            case let .failure(error): return failed(error)
            }
            index += definition.ai.count

            var end = index
            let limit = AITable.predefinedValueLength(forPrefixOf: definition.ai).map { index + $0 } ?? characters.count
            while end < min(limit, characters.count) && !separators.contains(characters[end]) {
                end += 1
            }
            let value = String(characters[index..<end])
            index = end
            if let error = collector.add(definition, value: value, today: today) { return failed(error) }
        }
        if collector.elements.isEmpty { return failed(.expectedAI(found: "")) }
        return GS1Parse(elements: collector.elements)
    }

    /// The AI starting at `index`, using the table's AI length for its first two digits.
    private static func readAI(_ characters: [Character], at index: Int) -> Result<AIDefinition, GS1Error> {
        let head = characters[index..<min(index + 2, characters.count)]
        guard head.count == 2, head.allSatisfy(\.isASCIIDigit) else {
            return .failure(.expectedAI(found: String(characters[index..<min(index + 8, characters.count)])))
        }
        let prefix = String(head)
        guard let length = AITable.aiLength(forPrefix: prefix) else { return .failure(.unknownAI(prefix)) }
        let digits = characters[index..<min(index + length, characters.count)]
        let ai = String(digits)
        guard digits.count == length, digits.allSatisfy(\.isASCIIDigit), let definition = AITable.definition(for: ai) else {
            return .failure(.unknownAI(ai))
        }
        return .success(definition)
    }
}
