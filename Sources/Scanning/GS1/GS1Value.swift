/// What an AI's value means, typed: the parser fills this from the AI's `AIMeaning`.
public enum GS1Value: Equatable, Hashable, Sendable {
    case text(String)
    /// A GTIN-14 (AIs 01, 02, 03), check digit verified.
    case gtin(String)
    /// An SSCC (AI 00), check digit verified.
    case sscc(String)
    /// A GLN (AIs 410–417), check digit verified.
    case gln(String)
    /// A date, with a YYMMDD day 00 already resolved to the month's last day.
    case date(CalendarDate)
    case count(Int)
    case measure(Measure)
    case amount(Amount)

    /// The value as a person reads it: `2020-12-25`, `1.250 kg`, `ABC123`.
    public var text: String {
        switch self {
        case let .text(text), let .gtin(text), let .sscc(text), let .gln(text): text
        case let .date(date): date.description
        case let .count(count): String(count)
        case let .measure(measure): measure.description
        case let .amount(amount): amount.description
        }
    }
}
