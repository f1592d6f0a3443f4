/// UPC-E, the zero-suppressed 8-digit UPC.
public enum UPCE {
    /// Expands an 8-digit UPC-E (number system, 6 digits, check) to its 12-digit UPC-A form.
    public static func expand(_ d: [Int]) -> [Int]? {
        guard d.count == 8 else { return nil }
        let ns = d[0], x = Array(d[1...6]), check = d[7]
        let body: [Int]
        switch x[5] {
        case 0, 1, 2: body = [x[0], x[1], x[5], 0, 0, 0, 0, x[2], x[3], x[4]]
        case 3: body = [x[0], x[1], x[2], 0, 0, 0, 0, 0, x[3], x[4]]
        case 4: body = [x[0], x[1], x[2], x[3], 0, 0, 0, 0, 0, x[4]]
        default: body = [x[0], x[1], x[2], x[3], x[4], 0, 0, 0, 0, x[5]]
        }
        return [ns] + body + [check]
    }

    /// Eight digits are UPC-E when they start with number system 0 or 1 and the check digit of
    /// the expanded UPC-A holds.
    static func isValid(_ digits: [Int]) -> Bool {
        guard digits.count == 8, digits[0] <= 1, let expanded = expand(digits) else { return false }
        return CheckDigit.gs1(of: expanded.dropLast()) == digits[7]
    }
}
