import Foundation

@testable import Scanning

/// The day every test reads GS1 dates against: two-digit years 00–75 are 2000–2075, 76–99 are
/// 1976–1999.
let testToday = CalendarDate(year: 2025, month: 6, day: 15)

/// The FNC1 group separator as scanners send it.
let gs = "\u{1D}"

func options(
    standIn: Character? = nil,
    allowFreeText: Bool = true,
    layout: LayoutTranslation? = nil,
    detectsLayout: Bool = true
) -> ScanOptions {
    ScanOptions(separatorStandIn: standIn, today: testToday, allowFreeText: allowFreeText, layout: layout, detectsLayout: detectsLayout)
}

func parse(_ input: String, _ scanOptions: ScanOptions = options()) -> ScanResult {
    Scan.parse(input, options: scanOptions)
}

/// `[(ai, raw)]` of a result, for comparing fields without titles and values.
func pairs(_ result: ScanResult) -> [String] {
    result.elements.map { "(\($0.ai))\($0.raw)" }
}

/// Turns the GS1 Syntax Engine's test notation (`^` for FNC1) into what a scanner sends: FNC1
/// in first position becomes the `]C1` identifier, the others 0x1D.
func scannerData(_ engineNotation: String) -> String {
    guard engineNotation.hasPrefix("^") else { return engineNotation }
    return "]C1" + engineNotation.dropFirst().replacingOccurrences(of: "^", with: gs)
}
