/// Reads what a scanner or a person typed: AIM prefix, GS1 data in any of its three forms,
/// EAN/UPC/ISBN/ISSN/ITF-14 codes with their check digits, or free text.
public enum Scan {
    /// The one entry point. Never throws: a refusal is `ScanResult.error`, with the input kept.
    public static func parse(_ input: String, options: ScanOptions = ScanOptions()) -> ScanResult {
        guard let layout = options.layout else {
            let result = read(input, options: options)
            guard !result.isRecognised, options.detectsLayout, result.error != .empty else { return result }
            var withHint = result
            withHint.layoutMismatch = LayoutDetector.detect(input, options: options)
            return withHint
        }
        let restored = read(input, as: layout.restore(input), options: options)
        guard !restored.isRecognised else { return restored }
        // The setting no longer fits (the scanner was reconfigured): read the scan as it is.
        var plain = read(input, options: options)
        guard plain.isRecognised else { return restored }
        plain.layoutMismatch = .settingNotNeeded(layout)
        return plain
    }

    /// Reads `text` (the input, or the input with a layout undone) with no layout handling.
    static func read(_ input: String, as text: String? = nil, options: ScanOptions) -> ScanResult {
        let trimmed = trimScannerSuffix(text ?? input)
        guard !trimmed.isEmpty else { return ScanResult(input: input, symbology: .freeText, code: "", error: .empty) }
        let (aim, body) = AIMIdentifier.split(trimmed)
        var result = ScanResult(input: input, symbology: aim?.symbology ?? .freeText, aim: aim, code: String(body))
        if let aim, body.isEmpty {
            result.error = .nothingAfterPrefix(aim)
            return result
        }
        guard body.count <= options.maximumLength else {
            result.error = .tooLong(limit: options.maximumLength)
            return result
        }

        if let gs1 = readGS1(body, aim: aim, options: options) {
            result.gs1Form = gs1.form
            result.elements = gs1.parse.elements
            result.error = gs1.parse.error.map(ScanError.gs1)
            if aim == nil { result.symbology = gs1.form == .digitalLink ? .gs1DigitalLink : .gs1ElementString }
            return result
        }

        if aim == nil || aim?.isEANFamily == true || aim?.codeCharacter == "I" {
            switch PlainCode.classify(body, aim: aim) {
            case let .code(symbology, addOn):
                result.symbology = symbology
                if let addOn {
                    result.addOn = addOn
                    result.code = String(body.dropLast(addOn.count))
                }
                return result
            case let .refused(error):
                result.error = error
                return result
            case let .notACode(ifFreeTextIsOff):
                if aim == nil && !options.allowFreeText { result.error = ifFreeTextIsOff }
                return result
            }
        }
        // A barcode of a symbology with no check tabshell knows (Code 128, QR…): its content as is.
        return result
    }

    /// Decides whether the body is GS1 data and in which form, and parses it.
    private static func readGS1(_ body: Substring, aim: AIMIdentifier?, options: ScanOptions) -> (form: GS1Form, parse: GS1Parse)? {
        if DigitalLinkParser.isWebAddress(body) {
            return DigitalLinkParser.parse(body, today: options.today).map { (.digitalLink, $0) }
        }
        let separators = options.separators
        let startsWithAI = AITable.definition(atStartOf: body) != nil
        let marked: Bool
        if let aim {
            marked = aim.carriesGS1
        } else {
            let startsWithSeparator = body.first.map(separators.contains) ?? false
            let hasStandIn = options.separatorStandIn.map(body.contains) ?? false
            marked = startsWithSeparator || body.contains(ElementStringParser.groupSeparator) || (hasStandIn && startsWithAI)
        }
        if BracketedParser.looksBracketed(body) {
            let attempt = BracketedParser.parse(body, today: options.today)
            return marked || isPlausible(attempt) ? (.bracketed, attempt) : nil
        }
        if marked {
            return (.elementString, ElementStringParser.parse(body, separators: separators, today: options.today))
        }
        // No marker: GS1 only if it reads as GS1 throughout and is not a plain code's length of
        // digits (a 13-digit EAN also "starts with AI 40…").
        guard aim == nil, startsWithAI, case .notACode = PlainCode.classify(body, aim: nil) else { return nil }
        let attempt = ElementStringParser.parse(body, separators: separators, today: options.today)
        return attempt.error == nil ? (.elementString, attempt) : nil
    }

    /// Unmarked bracketed text is GS1 when it reads, or when it went wrong the way a GS1 string
    /// goes wrong (a check digit, a length, a date) rather than the way prose does: `(555)
    /// 123-4567` (no AI 555) and `(12) Monkeys` (letters in a date) stay free text.
    private static func isPlausible(_ attempt: GS1Parse) -> Bool {
        guard let error = attempt.error, attempt.elements.isEmpty else { return true }
        switch error {
        case .unknownAI, .expectedAI, .badCharacter: return false
        default: return true
        }
    }

    /// Drops surrounding spaces and the Enter/Tab a scanner ends with. Only these: a trailing
    /// 0x1D is data (a separator) and is kept.
    static func trimScannerSuffix(_ text: String) -> Substring {
        let blank: Set<Character> = [" ", "\t", "\r", "\n", "\r\n"]
        guard let first = text.firstIndex(where: { !blank.contains($0) }),
            let last = text.lastIndex(where: { !blank.contains($0) })
        else { return "" }
        return text[first...last]
    }
}
