import Foundation

/// Counts as words: "1,234 records", independent of the locale so screens are reproducible.
public enum Count {
    /// The number with thousands separators: 1234567 -> "1,234,567".
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return number < 0 ? "-" + out : out
    }

    /// "1 record", "2 records".
    public static func noun(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(grouped(number)) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
