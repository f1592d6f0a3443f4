/// Reads the human-readable GS1 form `(01)09506000134352(17)201225(10)ABC123`.
///
/// A `(` inside a value is written `\(` (the GS1 Syntax Engine's convention); a `(` that is not
/// followed by 2–4 digits and `)` is taken as part of the value anyway. Spaces around a value, as
/// printed under some barcodes (`(01) 0950… (10) ABC`), are ignored.
enum BracketedParser {
    /// Whether the text starts like the bracketed form: `(`, 2–4 digits, `)`.
    static func looksBracketed(_ text: Substring) -> Bool {
        aiInBrackets(Array(text), at: 0) != nil
    }

    static func parse(_ text: Substring, today: CalendarDate) -> GS1Parse {
        let characters = Array(text)
        var collector = ElementCollector()
        var index = 0
        func failed(_ error: GS1Error) -> GS1Parse { GS1Parse(elements: collector.elements, error: error) }

        while index < characters.count {
            guard let ai = aiInBrackets(characters, at: index) else {
                return failed(.expectedAI(found: String(characters[index..<min(index + 8, characters.count)])))
            }
            index += ai.count + 2
            var value = ""
            while index < characters.count && aiInBrackets(characters, at: index) == nil {
                if characters[index] == "\\" && index + 1 < characters.count && characters[index + 1] == "(" {
                    index += 1
                }
                value.append(characters[index])
                index += 1
            }
            guard let definition = AITable.definition(for: ai) else { return failed(.unknownAI(ai)) }
            let trimmed = trimmingSpaces(value)
            if let error = collector.add(definition, value: trimmed, today: today) { return failed(error) }
        }
        if collector.elements.isEmpty { return failed(.expectedAI(found: "")) }
        return GS1Parse(elements: collector.elements)
    }

    private static func trimmingSpaces(_ value: String) -> String {
        guard let first = value.firstIndex(where: { $0 != " " }), let last = value.lastIndex(where: { $0 != " " }) else {
            return ""
        }
        return String(value[first...last])
    }

    /// The AI digits when `(`, 2–4 digits and `)` start at `index`.
    private static func aiInBrackets(_ characters: [Character], at index: Int) -> String? {
        guard index < characters.count, characters[index] == "(" else { return nil }
        var digits = ""
        var position = index + 1
        while position < characters.count, characters[position].isASCIIDigit, digits.count < 4 {
            digits.append(characters[position])
            position += 1
        }
        guard (2...4).contains(digits.count), position < characters.count, characters[position] == ")" else { return nil }
        return digits
    }
}
