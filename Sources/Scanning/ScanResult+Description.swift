import Foundation

extension ScanResult: CustomStringConvertible {
    /// One line for a toast: `GTIN 09506000134352 · lot ABC123 · exp 2020-12-25`, `EAN-13
    /// 4006381333931`, or the free text. What was read only; a refusal is in `error.message`.
    public var description: String {
        if !elements.isEmpty {
            return elements.map(Self.summary).joined(separator: " · ")
        }
        switch symbology {
        case .freeText: return code
        default:
            let main = "\(symbology.title) \(code)"
            return addOn.map { "\(main) + \($0)" } ?? main
        }
    }

    /// The GS1 fields in the human-readable form, `(01)09506000134352(17)201225(10)ABC123`,
    /// whatever form they came in: one spelling to store, search and export. A `(` inside a
    /// value is written `\(` so the text reads back the same.
    public var bracketedText: String? {
        guard !elements.isEmpty else { return nil }
        return elements.map { element in
            "(\(element.ai))" + element.raw.replacingOccurrences(of: "(", with: "\\(")
        }.joined()
    }

    private static let shortLabels = [
        "00": "SSCC", "01": "GTIN", "02": "contains", "10": "lot", "11": "made", "13": "packed",
        "15": "best before", "16": "sell by", "17": "exp", "21": "serial", "30": "qty", "37": "qty",
    ]

    private static func summary(_ element: GS1Element) -> String {
        if let label = shortLabels[element.ai] {
            return "\(label) \(element.value.text)"
        }
        switch element.value {
        case .measure:
            // "Net weight (kg)" + "1.250 kg" reads better as "net weight 1.250 kg".
            let name = element.title.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)
            let suffix = element.title.hasSuffix(", logistics") ? " (logistics)" : ""
            return "\(name.lowercased()) \(element.value.text)\(suffix)"
        default:
            return "\(element.title) \(element.value.text)"
        }
    }
}
