/// How a session's child ended.
public struct SSHSessionEnd: Sendable, Equatable {
    public enum Termination: Sendable, Equatable {
        case exited(status: Int)
        case killed(signal: Int32)
    }

    public let termination: Termination
    /// True when the client had gone (or the server was stopping) and the child was hung up.
    public let wasHungUp: Bool

    public init(termination: Termination, wasHungUp: Bool) {
        self.termination = termination
        self.wasHungUp = wasHungUp
    }
}
