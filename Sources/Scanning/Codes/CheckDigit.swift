/// The check-digit rules of the codes tabshell reads.
public enum CheckDigit {
    /// GS1 mod-10 check digit of the payload digits (all but the check digit), used by GTIN, EAN,
    /// UPC, ITF-14, SSCC, GLN, ISBN-13 and ISSN's EAN-13: weights 3 and 1 from the right.
    public static func gs1<C: Collection>(of payload: C) -> Int where C.Element == Int {
        var sum = 0
        for (offset, digit) in payload.reversed().enumerated() {
            sum += digit * (offset % 2 == 0 ? 3 : 1)
        }
        return (10 - sum % 10) % 10
    }

    /// Mod-11 check character of ISBN-10 (9 payload digits) and ISSN (7 payload digits):
    /// weights counting down to 2 from the right, `X` for 10.
    public static func mod11<C: Collection>(of payload: C) -> Character where C.Element == Int {
        var sum = 0
        for (offset, digit) in payload.reversed().enumerated() {
            sum += digit * (offset + 2)
        }
        let value = (11 - sum % 11) % 11
        return value == 10 ? "X" : Character(String(value))
    }

    /// The digits of an all-digit string, `nil` if any character is not `0`–`9`.
    static func digits<S: StringProtocol>(_ text: S) -> [Int]? {
        var digits: [Int] = []
        digits.reserveCapacity(text.count)
        for character in text {
            guard let digit = character.asciiDigitValue else { return nil }
            digits.append(digit)
        }
        return digits
    }
}
