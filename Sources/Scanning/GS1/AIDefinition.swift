/// One GS1 Application Identifier: its digits, a short title for people, its value format and
/// what the value means. The parser reads these from `AITable`, never from a `switch` per AI.
public struct AIDefinition: Equatable, Hashable, Sendable {
    /// The AI's digits, `01`, `3103`, `8200`.
    public let ai: String
    /// A short title for the screen: `GTIN`, `Batch/lot`, `Net weight (kg)`.
    public let title: String
    public let components: [AIComponent]
    public let meaning: AIMeaning
    /// A GS1 Digital Link primary key (`/01/…`, `/00/…`, `/414/…`).
    public let isDigitalLinkKey: Bool

    /// Shortest and longest value the components allow.
    public var valueLength: ClosedRange<Int> {
        let shortest = components.filter { !$0.isOptional }.reduce(0) { $0 + $1.length.lowerBound }
        let longest = components.reduce(0) { $0 + $1.length.upperBound }
        return shortest...longest
    }

    /// Decimals implied by the AI's last digit for measures and amounts (`3103` → 3).
    public var impliedDecimals: Int? {
        switch meaning {
        case .measure, .amount: ai.last?.asciiDigitValue
        default: nil
        }
    }

    /// Whether every character of the value is a digit (all components `N`).
    var isNumeric: Bool { components.allSatisfy { $0.characters == .numeric } }
}
