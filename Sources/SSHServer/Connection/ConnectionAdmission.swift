import NIOConcurrencyHelpers
import NIOCore

/// Decides at accept time whether a connection may even start: the total number of
/// connections, the per-source rate, and the number of connections still starting up (sshd's
/// MaxStartups, with its random early drop).
final class ConnectionAdmission: Sendable {
    /// Why a connection is refused: the limit, as the metrics count it, and what the log says.
    struct Refusal: Equatable, CustomStringConvertible {
        let reason: SSHServerMetrics.ConnectionRefusal
        let description: String
    }

    private struct State {
        var open = 0
        /// The connections still starting up, by source (an address is gone at none).
        var startingUpBySource: [String: Int] = [:]
        var rate: SourceRateLimiter
        var guesses: SourceRateLimiter
    }

    private let limits: SSHServerLimits
    private let random: @Sendable () -> Double
    private let state: NIOLockedValueBox<State>

    /// `random` gives a number in 0..<1 for each random early drop decision (injected by tests).
    init(limits: SSHServerLimits, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.limits = limits
        self.random = random
        self.state = NIOLockedValueBox(
            State(
                rate: SourceRateLimiter(limit: limits.perSourceConnections, window: TimeAmount(limits.perSourceWindow)),
                guesses: SourceRateLimiter(limit: limits.perSourceWrongGuesses, window: TimeAmount(limits.perSourceGuessWindow)))
        )
    }

    /// Takes a connection and a start-up slot for a connection from `source`, or says why not.
    func admit(source: String, now: NIODeadline = .now()) -> Refusal? {
        state.withLockedValue { state in
            guard state.open < limits.maxConnections else {
                return Refusal(reason: .maxConnections, description: "\(limits.maxConnections) connections are already open")
            }
            guard !state.guesses.isAtLimit(source, now: now) else {
                return Refusal(
                    reason: .wrongGuesses, description: "\(state.guesses.limit) wrong guesses from this address in \(state.guesses.window.nanoseconds / 1_000_000_000) s")
            }
            guard state.rate.admit(source, now: now) else {
                return Refusal(
                    reason: .rate, description: "more than \(state.rate.limit) connections from this address in \(state.rate.window.nanoseconds / 1_000_000_000) s")
            }
            let startingUp = state.startingUpBySource.values.reduce(0, +)
            guard startingUp < limits.maxStartups else {
                return Refusal(reason: .maxStartups, description: "\(limits.maxStartups) connections are already starting up")
            }
            guard state.startingUpBySource[source, default: 0] < limits.maxStartupsPerSource else {
                return Refusal(
                    reason: .perSourceStartups, description: "\(limits.maxStartupsPerSource) connections from this address are already starting up")
            }
            let drop = limits.startupDropProbability(startingUp: startingUp)
            if drop > 0, random() < drop {
                return Refusal(
                    reason: .randomEarlyDrop,
                    description: "random early drop: \(startingUp) connections are starting up (\(Int((drop * 100).rounded())) % refused)")
            }
            state.open += 1
            state.startingUpBySource[source, default: 0] += 1
            return nil
        }
    }

    /// A connection from `source` guessed a secret wrong; true when the address has now made as
    /// many wrong guesses as it may within the window.
    func wrongGuess(source: String, now: NIODeadline = .now()) -> Bool {
        state.withLockedValue { $0.guesses.record(source, now: now) >= limits.perSourceWrongGuesses }
    }

    /// Gives back a start-up slot: the connection started its first session, or closed.
    func startupEnded(source: String) {
        state.withLockedValue { state in
            let left = state.startingUpBySource[source, default: 1] - 1
            state.startingUpBySource[source] = left > 0 ? left : nil
        }
    }

    /// An admitted connection closed.
    func connectionEnded() {
        state.withLockedValue { $0.open -= 1 }
    }
}
