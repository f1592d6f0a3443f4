import Foundation

/// What a feature's reducer hands back: work for the effect runner, and requests that only the
/// shell can carry out. A feature never reaches into another feature's state; it asks.
public struct Outcome: Equatable, Sendable {
    public var effects: [AppEffect] = []
    public var requests: [ShellRequest] = []

    /// Nothing to do.
    public static let none = Outcome()

    public static func effects(_ effects: [AppEffect]) -> Outcome { Outcome(effects: effects) }

    public static func request(_ requests: ShellRequest...) -> Outcome { Outcome(requests: requests) }

    /// This outcome followed by `other`.
    public func then(_ other: Outcome) -> Outcome {
        Outcome(effects: effects + other.effects, requests: requests + other.requests)
    }
}
