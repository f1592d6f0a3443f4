/// A line the server cannot honour, and why; such a line lets nobody in.
public struct AuthorizedKeysProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let sentence: String

    public var description: String { "line \(line): \(sentence)" }
}
