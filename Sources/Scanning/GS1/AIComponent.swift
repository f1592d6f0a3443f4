/// One part of an AI's value as the GS1 General Specifications write it: `N6`, `X..20`, `[N..12]`.
///
/// Most AIs have one component; some have several (`253`: N13 check digit, then up to 17
/// characters). Only the last component may vary in length, and optional ones come last.
public struct AIComponent: Equatable, Hashable, Sendable {
    public var characters: AICharacterSet
    public var length: ClosedRange<Int>
    public var isOptional = false
    public var checks: [Check] = []

    /// Content checks the parser runs on a component, named after the GS1 syntax tests.
    public enum Check: Equatable, Hashable, Sendable {
        /// GS1 mod-10 check digit in the last position (`csum`).
        case checkDigit
        /// YYMMDD; `dayMayBeZero` for the AIs where day 00 means the last day of the month (`yymmd0`).
        case date(dayMayBeZero: Bool)
        /// YYYYMMDD.
        case fullDate
        /// HHMM, 00:00–23:59.
        case time
    }

    /// `N<length>`: exactly `length` digits.
    static func n(_ length: Int, _ checks: Check...) -> AIComponent {
        AIComponent(characters: .numeric, length: length...length, checks: checks)
    }

    /// `N..<max>`: one to `max` digits.
    static func n(upTo max: Int, _ checks: Check...) -> AIComponent {
        AIComponent(characters: .numeric, length: 1...max, checks: checks)
    }

    /// `X<length>`: exactly `length` characters of character set 82.
    static func x(_ length: Int) -> AIComponent {
        AIComponent(characters: .cset82, length: length...length)
    }

    /// `X..<max>`: one to `max` characters of character set 82.
    static func x(upTo max: Int) -> AIComponent {
        AIComponent(characters: .cset82, length: 1...max)
    }

    /// `Y..<max>`: character set 39.
    static func y(upTo max: Int) -> AIComponent {
        AIComponent(characters: .cset39, length: 1...max)
    }

    /// `Z..<max>`: character set 64 (base64url).
    static func z(upTo max: Int) -> AIComponent {
        AIComponent(characters: .cset64, length: 1...max)
    }

    /// The same component in square brackets: it may be left out at the end of the value.
    var optional: AIComponent {
        var copy = self
        copy.isOptional = true
        return copy
    }
}
