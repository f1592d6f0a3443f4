/// Checks one AI value against its definition and interprets it. Shared by the three GS1 forms,
/// so an element means the same whether it came raw, in brackets or from a Digital Link.
enum ElementValidator {
    static func element(_ definition: AIDefinition, value: String, today: CalendarDate) -> Result<GS1Element, GS1Error> {
        let ai = definition.ai
        guard !value.isEmpty else { return .failure(.emptyValue(ai: ai)) }
        let characters = Array(value)
        // Characters first: "“A” is not a digit" says more than "15 digits, needs 14".
        if let (bad, set) = firstBadCharacter(characters, definition.components) {
            return .failure(.badCharacter(ai: ai, character: bad, set: set))
        }
        let allowed = definition.valueLength
        guard allowed.contains(characters.count) else {
            return .failure(.wrongLength(ai: ai, found: characters.count, allowed: allowed, numeric: definition.isNumeric))
        }

        var position = 0
        for component in definition.components {
            let remaining = characters.count - position
            if remaining == 0 && component.isOptional { break }
            let take = min(remaining, component.length.upperBound)
            let part = characters[position..<(position + take)]
            position += take
            guard part.count >= component.length.lowerBound else {
                return .failure(.wrongLength(ai: ai, found: characters.count, allowed: allowed, numeric: definition.isNumeric))
            }
            if let problem = check(String(part), component.checks, ai: ai, today: today) {
                return .failure(problem)
            }
        }
        return .success(GS1Element(ai: ai, title: definition.title, raw: value, value: interpret(definition, value, today: today)))
    }

    /// The first character outside its component's set; characters past the last component are
    /// held to the last component's set.
    private static func firstBadCharacter(_ characters: [Character], _ components: [AIComponent]) -> (Character, AICharacterSet)? {
        guard !components.isEmpty else { return nil }
        var componentIndex = 0
        var componentEnd = components.first?.length.upperBound ?? 0
        for (position, character) in characters.enumerated() {
            while position >= componentEnd && componentIndex + 1 < components.count {
                componentIndex += 1
                componentEnd += components[componentIndex].length.upperBound
            }
            let set = components[componentIndex].characters
            if !set.contains(character) { return (character, set) }
        }
        return nil
    }

    private static func check(_ part: String, _ checks: [AIComponent.Check], ai: String, today: CalendarDate) -> GS1Error? {
        for check in checks {
            switch check {
            case .checkDigit:
                guard let digits = CheckDigit.digits(part), let found = digits.last else { continue }
                let expected = CheckDigit.gs1(of: digits.dropLast())
                if found != expected { return .badCheckDigit(ai: ai, expected: expected, found: found) }
            case let .date(dayMayBeZero):
                if case let .failure(problem) = CalendarDate.gs1(digits: part, dayMayBeZero: dayMayBeZero, today: today) {
                    return .badDate(ai: ai, problem: problem)
                }
            case .fullDate:
                if case let .failure(problem) = CalendarDate.gs1(digits: part, dayMayBeZero: false, today: today) {
                    return .badDate(ai: ai, problem: problem)
                }
            case .time:
                guard let digits = CheckDigit.digits(part), digits.count == 4,
                    digits[0] * 10 + digits[1] <= 23, digits[2] * 10 + digits[3] <= 59
                else { return .badTime(ai: ai, value: part) }
            }
        }
        return nil
    }

    /// Only called once the value has passed every check, so each branch's parse succeeds; the
    /// fallbacks to `.text` are there so a table mistake shows the raw value instead of trapping.
    private static func interpret(_ definition: AIDefinition, _ value: String, today: CalendarDate) -> GS1Value {
        switch definition.meaning {
        case .text:
            return .text(value)
        case .gtin:
            return .gtin(value)
        case .sscc:
            return .sscc(value)
        case .gln:
            return .gln(value)
        case .date:
            guard case let .success(date) = CalendarDate.gs1(digits: value, dayMayBeZero: true, today: today) else {
                return .text(value)
            }
            return .date(date)
        case .count:
            return Int(value).map(GS1Value.count) ?? .text(value)
        case let .measure(unit):
            guard let decimals = definition.impliedDecimals, let number = ScaledDecimal(digits: value, decimals: decimals) else {
                return .text(value)
            }
            return .measure(Measure(value: number, unit: unit))
        case let .amount(withCurrency):
            let currency = withCurrency ? String(value.prefix(3)) : nil
            let digits = withCurrency ? String(value.dropFirst(3)) : value
            guard let decimals = definition.impliedDecimals, let number = ScaledDecimal(digits: digits, decimals: decimals) else {
                return .text(value)
            }
            return .amount(Amount(value: number, currencyCode: currency))
        }
    }
}
