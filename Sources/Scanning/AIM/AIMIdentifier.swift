/// An AIM symbology identifier (ISO/IEC 15424): `]`, a code character naming the barcode family,
/// and a modifier character with options, e.g. `]C1` for GS1-128, `]E0` for EAN-13/UPC-A.
/// Scanners set to send it put it before the code.
public struct AIMIdentifier: Equatable, Hashable, Sendable {
    public var codeCharacter: Character
    public var modifier: Character

    public init(codeCharacter: Character, modifier: Character) {
        self.codeCharacter = codeCharacter
        self.modifier = modifier
    }

    /// `]C1`.
    public var text: String { "]\(codeCharacter)\(modifier)" }

    /// The symbology the identifier names. EAN/UPC and ITF identifiers name a family; the scan's
    /// digits then decide between EAN-13, UPC-A, ISBN-13 and so on.
    public var symbology: ScanSymbology {
        switch (codeCharacter, modifier) {
        case ("C", "1"): .gs1128
        case ("C", _): .code128
        case ("e", _): .gs1DataBar
        case ("d", "2"), ("d", "5"): .gs1DataMatrix
        case ("d", _): .dataMatrix
        case ("Q", "3"), ("Q", "4"): .gs1QR
        case ("Q", _): .qr
        case ("J", "1"): .gs1DotCode
        case ("J", _): .dotCode
        case ("E", "4"): .ean8
        // An add-on sent on its own is not a code to check.
        case ("E", "1"), ("E", "2"): .otherBarcode
        case ("E", _): .ean13
        case ("I", _): .interleaved2of5
        default: AIMIdentifier.families[codeCharacter] ?? .otherBarcode
        }
    }

    /// The identifier says the data is GS1 AIs (FNC1 in first position, or GS1 DataBar).
    public var carriesGS1: Bool { symbology.carriesGS1 }

    /// The identifier says EAN/UPC (`]E`), whose content is checked as EAN-13, UPC-A, UPC-E or
    /// EAN-8; `]X0` is how some scanners send Bookland (ISBN) and ISSN EAN-13.
    var isEANFamily: Bool { (codeCharacter == "E" && modifier != "1" && modifier != "2") || codeCharacter == "X" }

    /// `]E3`: an EAN/UPC code followed by its 2- or 5-digit add-on.
    var hasAddOn: Bool { codeCharacter == "E" && modifier == "3" }

    /// Splits a leading AIM identifier from the text. Only code characters of the ISO/IEC 15424
    /// table are taken, so a `]` that starts ordinary text stays part of it.
    public static func split(_ text: Substring) -> (AIMIdentifier?, Substring) {
        let characters = Array(text.prefix(3))
        guard characters.count == 3, characters[0] == "]",
            families[characters[1]] != nil,
            characters[2].isASCII, characters[2].isLetter || characters[2].isASCIIDigit
        else { return (nil, text) }
        return (AIMIdentifier(codeCharacter: characters[1], modifier: characters[2]), text.dropFirst(3))
    }

    /// Code characters of ISO/IEC 15424 and the family each names.
    static let families: [Character: ScanSymbology] = [
        "A": .code39, "B": .telepen, "C": .code128, "D": .codeOne, "E": .ean13, "F": .codabar,
        "G": .code93, "H": .code11, "I": .interleaved2of5, "J": .dotCode, "K": .code16K, "L": .pdf417,
        "M": .msi, "N": .anker, "O": .codablock, "P": .plessey, "Q": .qr, "R": .standard2of5,
        "S": .standard2of5, "T": .code49, "U": .maxiCode, "X": .otherBarcode, "Z": .nonBarcode,
        "c": .channelCode, "d": .dataMatrix, "e": .gs1DataBar, "h": .hanXin, "z": .aztec,
    ]
}
