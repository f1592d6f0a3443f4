/// Why GS1 data was refused. Each case names the AI and carries one sentence for the screen.
public enum GS1Error: Error, Equatable, Hashable, Sendable {
    /// Digits that are not an AI the table knows; `ai` is as many digits as AIs with that prefix
    /// have (or the first two when no AI starts with them).
    case unknownAI(String)
    /// Where an AI should start there is something else.
    case expectedAI(found: String)
    /// A value with no characters.
    case emptyValue(ai: String)
    /// The value's length is outside what the AI allows.
    case wrongLength(ai: String, found: Int, allowed: ClosedRange<Int>, numeric: Bool)
    /// A character the AI's character set does not have.
    case badCharacter(ai: String, character: Character, set: AICharacterSet)
    case badCheckDigit(ai: String, expected: Int, found: Int)
    case badDate(ai: String, problem: DateProblem)
    case badTime(ai: String, value: String)
    /// The same AI twice with different values.
    case conflictingValues(ai: String)
    /// A Digital Link URI with a broken `%` escape or a character no URI has.
    case badDigitalLinkEncoding(String)

    public enum DateProblem: Error, Equatable, Hashable, Sendable {
        case month(Int)
        case day(Int)
        case dayNotInMonth(day: Int, month: Int, year: Int)
    }

    /// The AI the error is about, when there is one.
    public var ai: String? {
        switch self {
        case let .unknownAI(ai): ai
        case let .emptyValue(ai), let .wrongLength(ai, _, _, _), let .badCharacter(ai, _, _),
            let .badCheckDigit(ai, _, _), let .badDate(ai, _), let .badTime(ai, _), let .conflictingValues(ai):
            ai
        case .expectedAI, .badDigitalLinkEncoding: nil
        }
    }

    public var message: String {
        switch self {
        case let .unknownAI(ai):
            return "unknown AI (\(ai))"
        case let .expectedAI(found):
            return "expected an AI (2 to 4 digits) but found “\(found)”"
        case let .emptyValue(ai):
            return "AI (\(ai)): the value is empty"
        case let .wrongLength(ai, found, allowed, numeric):
            let unit = numeric ? "digits" : "characters"
            if allowed.lowerBound == allowed.upperBound {
                return "AI (\(ai)): \(found) \(found == 1 ? String(unit.dropLast()) : unit), needs \(allowed.upperBound)"
            }
            if found > allowed.upperBound {
                return "AI (\(ai)): more than \(allowed.upperBound) \(unit)"
            }
            return "AI (\(ai)): \(found) \(found == 1 ? String(unit.dropLast()) : unit), needs at least \(allowed.lowerBound)"
        case let .badCharacter(ai, character, set):
            let shown =
                character.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
                ? "“\(character)”"
                : character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: " ")
            return set == .numeric
                ? "AI (\(ai)): \(shown) is not a digit"
                : "AI (\(ai)): \(shown) is not allowed (\(set.name))"
        case let .badCheckDigit(ai, expected, found):
            return "AI (\(ai)): check digit should be \(expected), not \(found)"
        case let .badDate(ai, .month(month)):
            return "AI (\(ai)): month \(String(month).leftPadded(to: 2)) is not a month"
        case let .badDate(ai, .day(day)):
            return "AI (\(ai)): day \(String(day).leftPadded(to: 2)) is not a date"
        case let .badDate(ai, .dayNotInMonth(day, month, year)):
            return "AI (\(ai)): day \(day) is not a date in \(CalendarDate.monthName(month)) \(year)"
        case let .badTime(ai, value):
            return "AI (\(ai)): \(value) is not a time (HHMM)"
        case let .conflictingValues(ai):
            return "AI (\(ai)) appears twice with different values"
        case let .badDigitalLinkEncoding(detail):
            return "GS1 Digital Link: \(detail)"
        }
    }
}
