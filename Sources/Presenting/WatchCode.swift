import Foundation

/// The code a room types to watch a presentation: four digits from the system's CSPRNG
/// (`SystemRandomNumberGenerator` reads getrandom), unique among the live presentations of one
/// folder because each is a socket there.
public struct WatchCode: Equatable, Hashable, Sendable, CustomStringConvertible {
    public static let digits = 4
    /// The longest code a watcher may type (ssh's `watch CODE` is refused past it).
    public static let maximumLength = 8

    public let text: String

    /// `text` when it is digits only, 4 to 8 of them.
    public init?(_ text: String) {
        guard (Self.digits...Self.maximumLength).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        self.text = text
    }

    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> WatchCode {
        var text = ""
        for _ in 0..<digits { text.append(String(Int.random(in: 0...9, using: &generator))) }
        // Four digits always make a code.
        return WatchCode(text) ?? WatchCode(unchecked: text)
    }

    private init(unchecked text: String) { self.text = text }

    public var description: String { text }
}
