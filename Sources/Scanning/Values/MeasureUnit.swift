/// The units of the GS1 trade measure AIs (GS1 General Specifications, section 3.6).
public enum MeasureUnit: String, CaseIterable, Equatable, Hashable, Sendable {
    case kilogram, pound, troyOunce, ounce
    case metre, inch, foot, yard
    case squareMetre, squareInch, squareFoot, squareYard
    case litre, cubicMetre, usQuart, usGallon, cubicInch, cubicFoot, cubicYard
    case kilogramPerSquareMetre
    case percent

    public var symbol: String {
        switch self {
        case .kilogram: "kg"
        case .pound: "lb"
        case .troyOunce: "oz t"
        case .ounce: "oz"
        case .metre: "m"
        case .inch: "in"
        case .foot: "ft"
        case .yard: "yd"
        case .squareMetre: "m²"
        case .squareInch: "in²"
        case .squareFoot: "ft²"
        case .squareYard: "yd²"
        case .litre: "l"
        case .cubicMetre: "m³"
        case .usQuart: "qt"
        case .usGallon: "gal"
        case .cubicInch: "in³"
        case .cubicFoot: "ft³"
        case .cubicYard: "yd³"
        case .kilogramPerSquareMetre: "kg/m²"
        case .percent: "%"
        }
    }
}
