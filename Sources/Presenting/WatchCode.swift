import Foundation

/// The code a room types to watch a presentation: twelve symbols from the system's CSPRNG
/// (`SystemRandomNumberGenerator` reads getrandom), shown in three groups of four
/// (`k7mq-3fzp-x9hd`). The alphabet is the digits 2–9 and the lower-case letters without i, l
/// and o: nothing in it reads as something else (0/o, 1/l/i), so a code read aloud or copied
/// from a screen is typed right. 31¹² ≈ 7.9 × 10¹⁷ codes (59 bits): guessing one is hopeless at
/// any rate a server takes (docs/ssh-server.md, "Watch codes"). Unique among the live
/// presentations of one folder because each is a socket there, named by ``text``.
public struct WatchCode: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The symbols a code is made of, in no look-alike pairs.
    public static let alphabet: [Character] = Array("23456789abcdefghjkmnpqrstuvwxyz")
    /// Symbols in a code.
    public static let length = 12
    /// Symbols per group as shown (`k7mq-3fzp-x9hd`).
    public static let groupLength = 4
    /// The longest text a watcher may type for a code (spaces and dashes between groups allowed).
    public static let maximumTypedLength = 32

    /// The code as shown and as its socket is named: groups of four joined by `-`.
    public let text: String

    /// The code `typed` names: upper or lower case, groups joined by `-`, spaces or nothing;
    /// nil when it is not twelve symbols of ``alphabet``.
    public init?(_ typed: String) {
        guard typed.count <= Self.maximumTypedLength else { return nil }
        let symbols = typed.lowercased().filter { $0 != "-" && $0 != " " }
        guard symbols.count == Self.length, symbols.allSatisfy(Self.alphabet.contains) else { return nil }
        self.init(symbols: Array(symbols))
    }

    private init(symbols: [Character]) {
        text = stride(from: 0, to: symbols.count, by: Self.groupLength).map { String(symbols[$0..<min($0 + Self.groupLength, symbols.count)]) }
            .joined(separator: "-")
    }

    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> WatchCode {
        WatchCode(symbols: (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    public var description: String { text }
}
