import Foundation

/// Makes text from data safe to draw: nothing that a terminal would interpret (escape sequences,
/// bells, cursor movement, bidi overrides) ever reaches the screen; each such character becomes a
/// visible placeholder instead, so the user still sees that something was there.
public struct Sanitizer: Sendable {
    public let unicode: Bool

    public init(unicode: Bool) { self.unicode = unicode }

    /// One line for a single-line field: line breaks become a visible return mark (a space in ASCII).
    public func line(_ text: String) -> String {
        let newline = unicode ? "\u{23CE}" : " "
        return lines(text).joined(separator: newline)
    }

    /// The text split at its line breaks (CR LF, CR, LF, U+2028, U+2029), each line made safe.
    public func lines(_ text: String) -> [String] {
        guard text.unicodeScalars.contains(where: Self.isUnsafe) else { return [text] }
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\n" where previousWasCR:
                continue
            case "\n", "\r", "\u{2028}", "\u{2029}":
                lines.append(String(current))
                current = String.UnicodeScalarView()
            default:
                append(scalar, to: &current)
            }
        }
        lines.append(String(current))
        return lines
    }

    /// True when the scalar must never be written to a terminal as is.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return false }
        return value < 0x20 || (0x7F...0x9F).contains(value) || isBidiControl(value)
            || value == 0x2028 || value == 0x2029
    }

    /// A whole string with every unsafe scalar replaced, line breaks included (as placeholders).
    public func scrub(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Self.isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return String(out)
    }

    /// Appends the scalar, or what stands in for it when it is unsafe.
    private func append(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        if Self.isUnsafe(scalar) {
            out.append(contentsOf: placeholder(for: scalar).unicodeScalars)
        } else {
            out.append(scalar)
        }
    }

    private func placeholder(for scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value == 0x09 { return " " }
        guard unicode else { return "?" }
        switch value {
        // The Control Pictures block has one symbol per C0 control, and one for DEL.
        case 0x00..<0x20: return Unicode.Scalar(0x2400 + value).map { String($0) } ?? "\u{FFFD}"
        case 0x7F: return "\u{2421}"
        default: return "\u{FFFD}"
        }
    }

    private static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }
}
