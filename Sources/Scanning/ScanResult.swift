/// What a scan or a typed code was: its symbology, the code without the scanner's prefix, the GS1
/// fields if any, and the error if it did not read. The input itself is kept unchanged.
public struct ScanResult: Equatable, Hashable, Sendable {
    /// Exactly what was given to `Scan.parse`.
    public var input: String
    public var symbology: ScanSymbology
    /// The AIM identifier the scanner sent, if any.
    public var aim: AIMIdentifier?
    /// The code: input without the AIM identifier, surrounding spaces and the Enter/Tab suffix
    /// (and, when Settings › Scanner layout is set, with the layout undone).
    public var code: String
    /// How the GS1 data was written, for GS1 scans.
    public var gs1Form: GS1Form?
    /// The GS1 fields in the order they came; those before an error are kept.
    public var elements: [GS1Element]
    /// The 2- or 5-digit EAN/UPC add-on sent with `]E3`.
    public var addOn: String?
    public var error: ScanError?
    /// A keyboard-layout mismatch noticed in this scan, with the fix to tell the user.
    public var layoutMismatch: LayoutMismatch?

    public init(
        input: String,
        symbology: ScanSymbology,
        aim: AIMIdentifier? = nil,
        code: String,
        gs1Form: GS1Form? = nil,
        elements: [GS1Element] = [],
        addOn: String? = nil,
        error: ScanError? = nil,
        layoutMismatch: LayoutMismatch? = nil
    ) {
        self.input = input
        self.symbology = symbology
        self.aim = aim
        self.code = code
        self.gs1Form = gs1Form
        self.elements = elements
        self.addOn = addOn
        self.error = error
        self.layoutMismatch = layoutMismatch
    }

    public var isValid: Bool { error == nil }

    /// Read as something more than free text: a checked code or GS1 data, without error.
    public var isRecognised: Bool { error == nil && symbology != .freeText && (gs1Form != nil || isPlainCode) }

    private var isPlainCode: Bool {
        switch symbology {
        case .ean13, .ean8, .upcA, .upcE, .gtin14, .itf14, .isbn10, .isbn13, .issn, .issn13: true
        default: false
        }
    }

    // MARK: - Fields

    /// The first element with this AI.
    public func element(_ ai: String) -> GS1Element? {
        elements.first { $0.ai == ai }
    }

    /// The GTIN as 14 digits: AI (01) (or (02) for the contents of a logistic unit), or the GTIN a
    /// plain EAN-13, EAN-8, UPC-A, UPC-E, GTIN-14, ITF-14, ISBN-13 or ISSN EAN-13 is.
    public var gtin: String? {
        if let element = element("01") ?? element("02") { return element.raw }
        guard error == nil else { return nil }
        switch symbology {
        case .ean13, .isbn13, .issn13, .upcA, .ean8, .gtin14, .itf14: return code.leftPadded(to: 14)
        case .upcE:
            guard let digits = CheckDigit.digits(code), let expanded = UPCE.expand(digits) else { return nil }
            return expanded.map(String.init).joined().leftPadded(to: 14)
        default: return nil
        }
    }

    /// AI (00).
    public var sscc: String? { element("00")?.raw }
    /// AI (10).
    public var lot: String? { element("10")?.raw }
    /// AI (21).
    public var serial: String? { element("21")?.raw }
    /// AI (17), use-by or expiry date.
    public var expiry: CalendarDate? { date("17") }
    /// AI (30) variable count, else AI (37) count of trade items.
    public var quantity: Int? {
        for ai in ["30", "37"] {
            if case let .count(count)? = element(ai)?.value { return count }
        }
        return nil
    }

    private func date(_ ai: String) -> CalendarDate? {
        guard case let .date(date)? = element(ai)?.value else { return nil }
        return date
    }
}
