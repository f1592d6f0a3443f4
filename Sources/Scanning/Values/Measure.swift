/// A quantity with its unit, from the GS1 measure AIs 31nn–36nn (`3103` 001250 = 1.250 kg).
public struct Measure: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var value: ScaledDecimal
    public var unit: MeasureUnit

    public init(value: ScaledDecimal, unit: MeasureUnit) {
        self.value = value
        self.unit = unit
    }

    /// `1.250 kg`.
    public var description: String { "\(value) \(unit.symbol)" }
}
