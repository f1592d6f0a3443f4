/// The character sets GS1 allows in AI values (GS1 General Specifications, figures 7.11-1 to 7.11-3).
public enum AICharacterSet: String, Equatable, Hashable, Sendable {
    /// `N`: digits 0–9.
    case numeric = "digits"
    /// `X`: GS1 AI encodable character set 82 — letters, digits and `!"%&'()*+,-./:;<=>?_`.
    case cset82 = "GS1 character set 82"
    /// `Y`: character set 39 — upper-case letters, digits and `#-/`.
    case cset39 = "GS1 character set 39"
    /// `Z`: character set 64 — the file-safe base64 alphabet `A–Z a–z 0–9 - _` and `=` padding.
    case cset64 = "GS1 character set 64"

    public func contains(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first, scalar.isASCII else {
            return false
        }
        let isDigit = ("0"..."9").contains(scalar)
        let isUpper = ("A"..."Z").contains(scalar)
        let isLower = ("a"..."z").contains(scalar)
        switch self {
        case .numeric: return isDigit
        case .cset82: return isDigit || isUpper || isLower || AICharacterSet.cset82Punctuation.contains(scalar)
        case .cset39: return isDigit || isUpper || "#-/".unicodeScalars.contains(scalar)
        case .cset64: return isDigit || isUpper || isLower || "-_=".unicodeScalars.contains(scalar)
        }
    }

    /// How messages name the set: its raw value.
    public var name: String { rawValue }

    private static let cset82Punctuation = Set("!\"%&'()*+,-./:;<=>?_".unicodeScalars)
}
