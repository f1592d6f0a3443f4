import Foundation

/// The line under the photo field: what went wrong (a file refused, the limit reached), drawn
/// as an error, or something worth knowing (the matches Tab found, the codes read from a photo),
/// drawn plainly. A string written where a message is expected is a problem.
public struct PhotoMessage: Equatable, Sendable, ExpressibleByStringInterpolation {
    public enum Kind: Equatable, Sendable {
        case problem, information
    }

    public var text: String
    public var kind: Kind

    public init(_ text: String, kind: Kind) {
        self.text = text
        self.kind = kind
    }

    public init(stringLiteral text: String) {
        self.init(text, kind: .problem)
    }

    public static func problem(_ text: String) -> PhotoMessage { PhotoMessage(text, kind: .problem) }
    public static func information(_ text: String) -> PhotoMessage { PhotoMessage(text, kind: .information) }
}
