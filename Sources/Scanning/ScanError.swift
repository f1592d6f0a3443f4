/// Why a scan or a typed code was refused. Each case carries one sentence for the screen; the
/// first five are the `CaptureMode.BarcodeError` cases with the same sentences, so the app can
/// switch to this module without its messages changing.
public enum ScanError: Error, Equatable, Hashable, Sendable {
    case empty
    case badCheckDigit(symbology: ScanSymbology, expected: Character, found: Character)
    case unsupportedLength(digits: Int)
    case notACode
    case tooLong(limit: Int)
    /// An AIM identifier with nothing after it.
    case nothingAfterPrefix(AIMIdentifier)
    /// A code whose length does not fit the symbology its AIM identifier names (`]E4` + 7 digits).
    case wrongLengthFor(symbology: ScanSymbology, length: Int)
    /// GS1 data with a problem; the message names the AI.
    case gs1(GS1Error)

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
        case let .nothingAfterPrefix(aim):
            "The scanner sent \(aim.text) (\(aim.symbology.title)) and no code after it."
        case let .wrongLengthFor(symbology, length):
            "\(length) characters is not a length \(symbology.title) has."
        case let .gs1(error):
            Self.sentence(error.message)
        }
    }

    /// GS1 messages start with "AI (…)" or lower case so they read inside other text; as a
    /// message on their own they get a capital and a full stop.
    private static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capitalised = first.uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }
}
