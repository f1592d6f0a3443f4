/// What an AI's value stands for, which decides its typed `GS1Value`.
public enum AIMeaning: Equatable, Hashable, Sendable {
    case text
    /// AIs 01, 02, 03.
    case gtin
    /// AI 00.
    case sscc
    /// AIs 410–417.
    case gln
    /// A single YYMMDD or YYYYMMDD date (11–17, 4326, 7006, 7250).
    case date
    /// AIs 30 and 37.
    case count
    /// 31nn–36nn and 394n; the AI's last digit is the number of decimals.
    case measure(MeasureUnit)
    /// 390n–393n and 395n; the AI's last digit is the number of decimals, and with a currency
    /// the value starts with a 3-digit ISO 4217 code.
    case amount(withCurrency: Bool)
}
