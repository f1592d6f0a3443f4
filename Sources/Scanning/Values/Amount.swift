/// A money amount from the GS1 AIs 390n–393n and 395n, with its ISO 4217 numeric currency code
/// when the AI carries one (391n, 393n).
public struct Amount: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var value: ScaledDecimal
    /// ISO 4217 numeric code such as `978` (euro); `nil` when the currency is implied.
    public var currencyCode: String?

    public init(value: ScaledDecimal, currencyCode: String? = nil) {
        self.value = value
        self.currencyCode = currencyCode
    }

    /// `12.99` or `12.99 (currency 978)`.
    public var description: String {
        currencyCode.map { "\(value) (currency \($0))" } ?? value.description
    }
}
