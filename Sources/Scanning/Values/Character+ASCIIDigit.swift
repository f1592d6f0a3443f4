extension Character {
    /// `0`–`9` only; `Character.isNumber` also accepts other scripts' digits, which GS1 does not.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) && unicodeScalars.count == 1 }

    var asciiDigitValue: Int? {
        guard isASCIIDigit, let scalar = unicodeScalars.first else { return nil }
        return Int(scalar.value) - 48
    }
}
