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

    public init(ai: String, title: String, components: [AIComponent], meaning: AIMeaning, isDigitalLinkKey: Bool = false) {
        self.ai = ai
        self.title = title
        self.components = components
        self.meaning = meaning
        self.isDigitalLinkKey = isDigitalLinkKey
    }

    /// The AI's value has a length fixed by its first two digits (GS1 figure 7.8.5-2), so no
    /// separator follows it in a raw element string.
    public var hasPredefinedLength: Bool { AITable.predefinedValueLength(forPrefixOf: ai) != nil }

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

/// A row of `AITable`: one AI, or a run of AIs sharing a format (`3100` through `3105`).
struct AIEntry: Sendable {
    let first: String
    let last: String
    let title: String
    let components: [AIComponent]
    let meaning: AIMeaning
    let isDigitalLinkKey: Bool

    init(_ ai: String, through last: String? = nil, _ title: String, _ components: [AIComponent], _ meaning: AIMeaning, key: Bool = false) {
        self.first = ai
        self.last = last ?? ai
        self.title = title
        self.components = components
        self.meaning = meaning
        self.isDigitalLinkKey = key
    }

    /// Each AI of the run as its own definition.
    var definitions: [AIDefinition] {
        guard let low = Int(first), let high = Int(last), low <= high else { return [] }
        return (low...high).map { number in
            let ai = String(number).leftPadded(to: first.count)
            return AIDefinition(ai: ai, title: title, components: components, meaning: meaning, isDigitalLinkKey: isDigitalLinkKey)
        }
    }
}
