/// JSON string literals, written by hand so a line of JSON keeps its fields in a fixed order: the
/// one writer the exports, the on-commit command's input and the recordings share.
public enum JSONString {
    /// `text` as a JSON string. Besides `"` and `\`, every character a terminal would act on is
    /// escaped (``Sanitizer/isUnsafe(_:)``: the C0 controls, DEL, the C1 controls, U+2028, U+2029
    /// and the bidi controls), so JSON on a terminal never carries an escape sequence or reorders
    /// text; and U+FEFF, which Foundation's JSONSerialization drops when it opens a string raw (an
    /// export read back would lose it).
    public static func quoted(_ text: String) -> String {
        // Most strings need no escape: one pass over the bytes, then copy them whole.
        guard text.utf8.contains(where: mayNeedEscape) else { return "\"" + text + "\"" }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{FEFF}": out += unicodeEscape(scalar)
            case _ where Sanitizer.isUnsafe(scalar): out += unicodeEscape(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `\u001b`: the escape JSON and the CSV export share.
    public static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Bytes that may need an escape: controls, `"`, `\\`, DEL, 0xC2 (the first byte of the C1
    /// controls U+0080–U+009F), 0xD8 (of U+061C), 0xE2 (of U+2028, U+2029 and the other bidi
    /// controls) and 0xEF (of U+FEFF); the slow path checks in full.
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        if byte < 0x20 { return true }
        switch byte {
        case 0x22, 0x5C, 0x7F, 0xC2, 0xD8, 0xE2, 0xEF: return true
        default: return false
        }
    }
}
