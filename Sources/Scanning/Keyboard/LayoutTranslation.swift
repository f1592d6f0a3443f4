/// A scanner set to one keyboard layout typing into a computer set to another, and how to undo
/// it: the value of Settings › Scanner layout.
public struct LayoutTranslation: Equatable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The layout the scanner is set to send.
    public var scanner: KeyboardLayout
    /// The layout the computer reads the keys with.
    public var computer: KeyboardLayout

    public init(scanner: KeyboardLayout, computer: KeyboardLayout) {
        self.scanner = scanner
        self.computer = computer
    }

    /// `US scanner on AZERTY`.
    public var description: String { "\(scanner.shortName) scanner on \(computer.shortName)" }

    /// What the scanner meant: each character goes back to the key it came from on the
    /// computer's layout, then to what that key is on the scanner's layout. Characters outside
    /// the tables (control characters, Enter, 0x1D) are kept.
    public func restore(_ text: String) -> String {
        String(
            text.map { received in
                let usKey = computer.usKey(typing: received) ?? received
                return scanner.character(atUSKey: usKey) ?? usKey
            })
    }

    /// What the computer types when the scanner means `text`: the inverse of `restore`.
    public func garble(_ text: String) -> String {
        String(
            text.map { meant in
                let usKey = scanner.usKey(typing: meant) ?? meant
                return computer.character(atUSKey: usKey) ?? usKey
            })
    }

    /// The mismatches detection tries, those with a US side first (the common case: a scanner
    /// left at its US default).
    public static let candidates: [LayoutTranslation] = {
        let others = KeyboardLayout.allCases.filter { $0 != .us }
        let withUS = others.flatMap { [LayoutTranslation(scanner: .us, computer: $0), LayoutTranslation(scanner: $0, computer: .us)] }
        let between = others.flatMap { scanner in
            others.filter { $0 != scanner }.map { LayoutTranslation(scanner: scanner, computer: $0) }
        }
        return withUS + between
    }()
}
