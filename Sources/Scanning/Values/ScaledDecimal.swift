/// An exact decimal number as GS1 writes it: whole digits and an implied decimal point.
///
/// `3103` + `001250` is 1.250 kg: `units` 1250, `decimals` 3. Kept exact (no `Double`) so the value
/// shown is the value on the label.
public struct ScaledDecimal: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The digits as an integer, without the decimal point.
    public var units: Int
    /// How many of those digits are after the decimal point.
    public var decimals: Int

    public init(units: Int, decimals: Int) {
        self.units = units
        self.decimals = decimals
    }

    /// Reads digits with an implied decimal point; `nil` if `digits` is not all ASCII digits or
    /// does not fit an `Int`.
    public init?(digits: String, decimals: Int) {
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let units = Int(digits) else { return nil }
        self.init(units: units, decimals: decimals)
    }

    /// `1.250` for units 1250 and 3 decimals; `0.05` for 5 and 2; `1250` for 0 decimals.
    public var description: String {
        let sign = units < 0 ? "-" : ""
        let digits = String(units.magnitude)
        guard decimals > 0 else { return sign + digits }
        let padded = digits.leftPadded(to: decimals + 1)
        let split = padded.index(padded.endIndex, offsetBy: -decimals)
        return sign + padded[..<split] + "." + padded[split...]
    }
}
