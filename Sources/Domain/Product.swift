import Foundation
import Scanning

/// A product of the catalog (`tabshell catalog import`), as a scan shows it: the name and
/// brand first, then the quantity and energy when the catalog has them.
public struct Product: Equatable, Hashable, Sendable, Codable {
    public var name: String
    public var brand: String?
    public var quantity: String?
    /// Energy per 100 g (or 100 ml), in kcal.
    public var energyKcal: Double?

    public init(name: String, brand: String? = nil, quantity: String? = nil, energyKcal: Double? = nil) {
        self.name = name
        self.brand = brand
        self.quantity = quantity
        self.energyKcal = energyKcal
    }

    /// "Nutella · Ferrero · 400 g": what a line about the product says.
    public var summary: String {
        [name, brand, quantity].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// The key a catalog row and a scan meet on: a GTIN (EAN-13, EAN-8, UPC-A, GTIN-14 with a
    /// valid check digit, and the GTIN of GS1 data) as 14 digits, so a UPC-A catalog row matches
    /// an EAN-13 scan with a leading 0; anything else exactly as written (trimmed).
    public static func catalogKey(for code: String) -> String {
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        let utf8 = Array(trimmed.utf8)
        guard [8, 12, 13, 14].contains(utf8.count), utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return trimmed }
        let digits = utf8.map { Int($0 - 48) }
        guard CheckDigit.gs1(of: digits.dropLast()) == digits[digits.count - 1] else { return trimmed }
        return String(repeating: "0", count: 14 - digits.count) + trimmed
    }

    /// The key of an accepted code: its GTIN when it has one (GS1 data's AI 01, UPC-E expanded),
    /// else the catalog key of its value.
    public static func catalogKey(for barcode: Barcode) -> String {
        barcode.reading.gtin ?? catalogKey(for: barcode.value)
    }
}
