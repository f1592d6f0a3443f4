import Foundation

/// The barcode families tabshell recognises, plus free text (QR-like payloads) when allowed.
public enum Symbology: String, CaseIterable, Codable, Sendable, Hashable {
    case ean13, ean8, upcA, upcE, gtin14, freeText

    public var title: String {
        switch self {
        case .ean13: "EAN-13"
        case .ean8: "EAN-8"
        case .upcA: "UPC-A"
        case .upcE: "UPC-E"
        case .gtin14: "GTIN-14"
        case .freeText: "Text"
        }
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
}

/// Why a typed or scanned code was refused. Each case carries a sentence for the screen.
public enum BarcodeError: Error, Equatable, Sendable {
    case empty
    case badCheckDigit(symbology: Symbology, expected: Int, found: Int)
    case unsupportedLength(digits: Int)
    case notACode
    case tooLong(limit: Int)

    public var message: String {
        switch self {
        case .empty:
            "Type or scan a code, then press Enter."
        case let .badCheckDigit(symbology, expected, found):
            "Bad check digit for \(symbology.title): the last digit is \(found), it should be \(expected)."
        case let .unsupportedLength(digits):
            "\(digits) digits is not a code length tabshell knows (8, 12, 13 or 14); free text is off in Settings."
        case .notACode:
            "Not a barcode: codes are digits only; free text is off in Settings."
        case let .tooLong(limit):
            "Too long: a code has at most \(limit) characters."
        }
    }
}

/// Validates codes by length and GS1 check digit.
public enum BarcodeValidator {
    /// `4006 3813 3393 1` or `400-638-133-393-1`, as people copy codes from labels: the digits
    /// alone. Only single spaces or dashes between digit groups go; anything else is kept.
    public static func withoutDigitGroupSeparators(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last,
              first.properties.numericType != nil, ("0"..."9").contains(first), ("0"..."9").contains(last) else { return text }
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
        let text = withoutDigitGroupSeparators(raw.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.count <= maximumLength else { return .failure(.tooLong(limit: maximumLength)) }

        let isDigits = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        guard isDigits else {
            return allowFreeText ? .success(Barcode(value: text, symbology: .freeText)) : .failure(.notACode)
        }
        let digits = text.unicodeScalars.map { Int($0.value) - 48 }

        switch digits.count {
        case 8:
            // Eight digits are UPC-E when they start with number system 0 or 1 and the UPC-E
            // check digit holds; otherwise EAN-8.
            if digits[0] <= 1, let expanded = expandUPCE(digits), checkDigit(of: expanded.dropLast()) == digits[7] {
                return .success(Barcode(value: text, symbology: .upcE))
            }
            return checked(text, digits, .ean8)
        case 12: return checked(text, digits, .upcA)
        case 13: return checked(text, digits, .ean13)
        case 14: return checked(text, digits, .gtin14)
        default:
            return allowFreeText
                ? .success(Barcode(value: text, symbology: .freeText))
                : .failure(.unsupportedLength(digits: digits.count))
        }
    }

    /// GS1 mod-10 check digit of the payload digits (all but the check digit).
    public static func checkDigit<C: Collection>(of payload: C) -> Int where C.Element == Int {
        var sum = 0
        for (offset, digit) in payload.reversed().enumerated() {
            sum += digit * (offset % 2 == 0 ? 3 : 1)
        }
        return (10 - sum % 10) % 10
    }

    /// Expands an 8-digit UPC-E (number system, 6 digits, check) to its 12-digit UPC-A form.
    public static func expandUPCE(_ d: [Int]) -> [Int]? {
        guard d.count == 8 else { return nil }
        let ns = d[0], x = Array(d[1...6]), check = d[7]
        let body: [Int]
        switch x[5] {
        case 0, 1, 2: body = [x[0], x[1], x[5], 0, 0, 0, 0, x[2], x[3], x[4]]
        case 3: body = [x[0], x[1], x[2], 0, 0, 0, 0, 0, x[3], x[4]]
        case 4: body = [x[0], x[1], x[2], x[3], 0, 0, 0, 0, 0, x[4]]
        default: body = [x[0], x[1], x[2], x[3], x[4], 0, 0, 0, 0, x[5]]
        }
        return [ns] + body + [check]
    }

    private static func checked(_ text: String, _ digits: [Int], _ symbology: Symbology) -> Result<Barcode, BarcodeError> {
        let expected = checkDigit(of: digits.dropLast())
        guard let found = digits.last, found == expected else {
            return .failure(.badCheckDigit(symbology: symbology, expected: expected, found: digits.last ?? 0))
        }
        return .success(Barcode(value: text, symbology: symbology))
    }
}
