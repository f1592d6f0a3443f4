import NIOConcurrencyHelpers
import NIOCore

/// Decides at accept time whether a connection may even start: the total number of
/// connections, the per-source rate, and the number of connections still starting up (sshd's
/// MaxStartups, with its random early drop).
final class ConnectionAdmission: Sendable {
    enum Refusal: Equatable, CustomStringConvertible {
        case tooManyConnections(limit: Int)
        case tooManyStartups(limit: Int)
        case randomEarlyDrop(startingUp: Int, percent: Int)
        case tooManyStartupsFromSource(limit: Int)
        case sourceRateExceeded(limit: Int, window: TimeAmount)
        case wrongGuessesFromSource(limit: Int, window: TimeAmount)

        var description: String {
            switch self {
            case .tooManyConnections(let limit):
                "\(limit) connections are already open"
            case .tooManyStartups(let limit):
                "\(limit) connections are already starting up"
            case .randomEarlyDrop(let startingUp, let percent):
                "random early drop: \(startingUp) connections are starting up (\(percent) % refused)"
            case .tooManyStartupsFromSource(let limit):
                "\(limit) connections from this address are already starting up"
            case .sourceRateExceeded(let limit, let window):
                "more than \(limit) connections from this address in \(window.nanoseconds / 1_000_000_000) s"
            case .wrongGuessesFromSource(let limit, let window):
                "\(limit) wrong guesses from this address in \(window.nanoseconds / 1_000_000_000) s"
            }
        }
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
                return .tooManyConnections(limit: limits.maxConnections)
            }
            guard !state.guesses.isAtLimit(source, now: now) else {
                return .wrongGuessesFromSource(limit: state.guesses.limit, window: state.guesses.window)
            }
            guard state.rate.admit(source, now: now) else {
                return .sourceRateExceeded(limit: state.rate.limit, window: state.rate.window)
            }
            let startingUp = state.startingUpBySource.values.reduce(0, +)
            guard startingUp < limits.maxStartups else {
                return .tooManyStartups(limit: limits.maxStartups)
            }
            guard state.startingUpBySource[source, default: 0] < limits.maxStartupsPerSource else {
                return .tooManyStartupsFromSource(limit: limits.maxStartupsPerSource)
            }
            let drop = limits.startupDropProbability(startingUp: startingUp)
            if drop > 0, random() < drop {
                return .randomEarlyDrop(startingUp: startingUp, percent: Int((drop * 100).rounded()))
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
