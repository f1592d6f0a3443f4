/// Recognises the plain (non-GS1-AI) codes: EAN-13, EAN-8, UPC-A, UPC-E, GTIN-14, ITF-14,
/// ISBN-10, ISBN-13, ISSN and ISSN's EAN-13, each with its check digit.
enum PlainCode {
    enum Outcome: Equatable {
        case code(ScanSymbology, addOn: String? = nil)
        /// Looks like that symbology but is wrong (check digit, length).
        case refused(ScanError)
        /// Not a plain code; when free text is off, `ifFreeTextIsOff` is the error to show.
        case notACode(ifFreeTextIsOff: ScanError)
    }

    /// A code with no AIM identifier, or one whose identifier is EAN/UPC or ITF.
    static func classify(_ text: Substring, aim: AIMIdentifier?) -> Outcome {
        if let aim {
            if aim.hasAddOn { return withAddOn(text) }
            if aim.codeCharacter == "E" && aim.modifier == "4" {
                guard let digits = CheckDigit.digits(text), digits.count == 8 else {
                    return .refused(.wrongLengthFor(symbology: .ean8, length: text.count))
                }
                return checked(digits, .ean8)
            }
            if aim.codeCharacter == "I" {
                guard let digits = CheckDigit.digits(text), digits.count == 14 else { return .code(.interleaved2of5) }
                return checked(digits, .itf14)
            }
            if aim.codeCharacter == "E", CheckDigit.digits(text).map({ ![8, 12, 13].contains($0.count) }) ?? true {
                return .refused(.wrongLengthFor(symbology: .ean13, length: text.count))
            }
        }
        if let digits = CheckDigit.digits(text) {
            return classify(digits: digits)
        }
        return classifyBookNumber(text)
    }

    private static func classify(digits: [Int]) -> Outcome {
        switch digits.count {
        case 8:
            if UPCE.isValid(digits) { return .code(.upcE) }
            if CheckDigit.gs1(of: digits.dropLast()) == digits[7] { return .code(.ean8) }
            // Eight digits that fail as EAN-8 can still be an ISSN typed without its hyphen.
            if isValidMod11(digits.map(digitCharacter)) { return .code(.issn) }
            return checked(digits, .ean8)
        case 10:
            let characters = digits.map(digitCharacter)
            if isValidMod11(characters) { return .code(.isbn10) }
            return .notACode(ifFreeTextIsOff: mod11Error(characters, .isbn10))
        case 12: return checked(digits, .upcA)
        case 13: return checked(digits, thirteenDigitSymbology(digits))
        case 14: return checked(digits, .gtin14)
        default: return .notACode(ifFreeTextIsOff: .unsupportedLength(digits: digits.count))
        }
    }

    /// ISBN-10 and ISSN may end in `X` and are often typed with hyphens (`0-306-40615-2`,
    /// `0317-8471`); ISBN-13 too (`978-0-306-40615-7`).
    private static func classifyBookNumber(_ text: Substring) -> Outcome {
        let compact = text.filter { $0 != "-" }
        let hyphenated = compact.count != text.count
        let characters = Array(compact)
        guard !characters.isEmpty, !(text.first == "-" || text.last == "-"),
            characters.dropLast().allSatisfy(\.isASCIIDigit),
            let last = characters.last, last.isASCIIDigit || last == "X" || last == "x"
        else { return .notACode(ifFreeTextIsOff: .notACode) }

        switch characters.count {
        case 8, 10:
            let symbology: ScanSymbology = characters.count == 8 ? .issn : .isbn10
            if isValidMod11(characters) { return .code(symbology) }
            let error = mod11Error(characters, symbology)
            return last.isASCIIDigit && !hyphenated ? .notACode(ifFreeTextIsOff: error) : .refused(error)
        case 13 where hyphenated:
            guard let digits = CheckDigit.digits(compact) else { return .notACode(ifFreeTextIsOff: .notACode) }
            let symbology = thirteenDigitSymbology(digits)
            guard symbology == .isbn13 else { return .notACode(ifFreeTextIsOff: .notACode) }
            return checked(digits, symbology)
        default:
            return .notACode(ifFreeTextIsOff: .notACode)
        }
    }

    /// `]E3`: the main code then a 2- or 5-digit add-on (an issue number, a book price).
    private static func withAddOn(_ text: Substring) -> Outcome {
        guard let digits = CheckDigit.digits(text) else { return .refused(.wrongLengthFor(symbology: .ean13, length: text.count)) }
        for addOnLength in [2, 5] where [12, 13].contains(digits.count - addOnLength) {
            let main = Array(digits.dropLast(addOnLength))
            let symbology = main.count == 12 ? ScanSymbology.upcA : thirteenDigitSymbology(main)
            guard case .code = checked(main, symbology) else { return checked(main, symbology) }
            return .code(symbology, addOn: String(text.suffix(addOnLength)))
        }
        return .refused(.wrongLengthFor(symbology: .ean13, length: digits.count))
    }

    /// 978/979 is Bookland (ISBN-13), 977 is ISSN, the rest EAN-13.
    private static func thirteenDigitSymbology(_ digits: [Int]) -> ScanSymbology {
        switch (digits[0], digits[1], digits[2]) {
        case (9, 7, 8), (9, 7, 9): .isbn13
        case (9, 7, 7): .issn13
        default: .ean13
        }
    }

    private static func checked(_ digits: [Int], _ symbology: ScanSymbology) -> Outcome {
        let expected = CheckDigit.gs1(of: digits.dropLast())
        guard let found = digits.last, found == expected else {
            return .refused(.badCheckDigit(symbology: symbology, expected: digitCharacter(expected), found: digitCharacter(digits.last ?? 0)))
        }
        return .code(symbology)
    }

    private static func isValidMod11(_ characters: [Character]) -> Bool {
        guard let payload = CheckDigit.digits(String(characters.dropLast())), let last = characters.last else { return false }
        return CheckDigit.mod11(of: payload) == (last == "x" ? "X" : last)
    }

    private static func mod11Error(_ characters: [Character], _ symbology: ScanSymbology) -> ScanError {
        let payload = CheckDigit.digits(String(characters.dropLast())) ?? []
        return .badCheckDigit(symbology: symbology, expected: CheckDigit.mod11(of: payload), found: characters.last ?? "?")
    }

    private static func digitCharacter(_ digit: Int) -> Character {
        Character(String(digit))
    }
}
