/// JSON string literals: quotes, backslashes, every C0 control and U+FEFF escaped, everything
/// else as UTF-8 (valid JSON, and the text stays readable in the file).
enum JSONText {
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{FEFF}":
                // Escaped: Foundation's JSONSerialization drops a raw U+FEFF that opens a string.
                result += "\\ufeff"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
