import Foundation
import Scanning

/// What kind of code was read: from the scanner's AIM identifier, or from the content
/// (Scanning's table: the EAN/UPC family, ISBN, ISSN, ITF-14, the GS1 forms and carriers, …).
public typealias Symbology = ScanSymbology

/// Why a typed or scanned code was refused; each case has one sentence for the screen.
public typealias BarcodeError = ScanError

extension ScanResult {
    /// The code to keep: GS1 data in its one bracketed spelling (so it stores, searches and
    /// exports the same whatever form it came in), a plain code without its AIM prefix, or the
    /// refusal.
    public var barcode: Result<Barcode, BarcodeError> {
        if let error { return .failure(error) }
        if let bracketed = bracketedText { return .success(Barcode(value: bracketed, symbology: symbology)) }
        let value = addOn.map { code + $0 } ?? code
        return .success(Barcode(value: value, symbology: symbology))
    }
}

/// An accepted code and its symbology.
public struct Barcode: Equatable, Hashable, Sendable, Codable {
    public var value: String
    public var symbology: Symbology

    public init(value: String, symbology: Symbology) {
        self.value = value
        self.symbology = symbology
    }

    /// The code read again, for its GS1 fields (GTIN, lot, expiry, serial, quantity…): GS1
    /// data is kept in its bracketed form, which reads back to the same fields.
    public var reading: ScanResult {
        Scan.parse(value, options: ScanOptions(allowFreeText: true, maximumLength: BarcodeValidator.maximumLength, detectsLayout: false))
    }

    /// Whether the code carries GS1 fields worth listing one by one.
    public var hasFields: Bool { value.hasPrefix("(") && !reading.elements.isEmpty }

    /// The GS1 fields one by one, as screens list them: ("GTIN (01)", "09506000134352"),
    /// ("Expiry (17)", "2020-12-25"); empty for a plain code.
    public var fields: [(label: String, value: String)] {
        guard value.hasPrefix("(") else { return [] }
        return reading.elements.map { ("\($0.title) (\($0.ai))", $0.value.text) }
    }

    /// One line for a toast or a list: the fields of GS1 data (`GTIN 09506000134352 · lot
    /// ABC123 · exp 2020-12-25`), else the code itself.
    public var summary: String { hasFields ? reading.description : value }
}

/// Validates codes by length and GS1 check digit.
public enum BarcodeValidator {
    /// `4006 3813 3393 1` or `400-638-133-393-1`, as people copy codes from labels: the digits
    /// alone. Only single spaces or dashes between digit groups go; anything else is kept.
    public static func withoutDigitGroupSeparators(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last,
            first.properties.numericType != nil, ("0"..."9").contains(first), ("0"..."9").contains(last)
        else { return text }
        var digits = String.UnicodeScalarView()
        var previousWasSeparator = false
        for scalar in scalars {
            if ("0"..."9").contains(scalar) {
                digits.append(scalar)
                previousWasSeparator = false
            } else if scalar == " " || scalar == "-", !previousWasSeparator {
                previousWasSeparator = true
            } else {
                return text
            }
        }
        return String(digits)
    }

    /// Free-text payloads longer than this are refused even when free text is allowed.
    public static let maximumLength = 512

    public static func validate(_ raw: String, allowFreeText: Bool) -> Result<Barcode, BarcodeError> {
        let result = read(raw, options: ScanOptions(allowFreeText: allowFreeText, maximumLength: maximumLength, detectsLayout: false))
        return result.barcode
    }

    /// Reads a scan or a typed code with Scanning (AIM prefix, GS1 data in its three forms, the
    /// codes with check digits, layout hints), digit groups typed with spaces or dashes first
    /// joined up.
    public static func read(_ raw: String, options: ScanOptions) -> ScanResult {
        Scan.parse(withoutDigitGroupSeparators(raw.trimmingCharacters(in: .whitespacesAndNewlines)), options: options)
    }
}
