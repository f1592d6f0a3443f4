/// The units of the GS1 trade measure AIs (GS1 General Specifications, section 3.6).
public enum MeasureUnit: String, CaseIterable, Equatable, Hashable, Sendable {
    case kilogram = "kg", pound = "lb", troyOunce = "oz t", ounce = "oz"
    case metre = "m", inch = "in", foot = "ft", yard = "yd"
    case squareMetre = "m²", squareInch = "in²", squareFoot = "ft²", squareYard = "yd²"
    case litre = "l", cubicMetre = "m³", usQuart = "qt", usGallon = "gal", cubicInch = "in³", cubicFoot = "ft³", cubicYard = "yd³"
    case kilogramPerSquareMetre = "kg/m²"
    case percent = "%"

    /// The unit as a measure shows it (`1.250 kg`): its raw value.
    public var symbol: String { rawValue }
}
