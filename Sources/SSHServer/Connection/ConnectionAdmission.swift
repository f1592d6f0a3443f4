import NIOConcurrencyHelpers
import NIOCore

/// Decides at accept time whether a connection may even start: the per-source rate and the
/// number of connections still starting up (sshd's MaxStartups).
final class ConnectionAdmission: Sendable {
    enum Refusal: Equatable, CustomStringConvertible {
        case tooManyStartups(limit: Int)
        case tooManyStartupsFromSource(limit: Int)
        case sourceRateExceeded(limit: Int, window: TimeAmount)

        var description: String {
            switch self {
            case .tooManyStartups(let limit):
                "\(limit) connections are already starting up"
            case .tooManyStartupsFromSource(let limit):
                "\(limit) connections from this address are already starting up"
            case .sourceRateExceeded(let limit, let window):
                "more than \(limit) connections from this address in \(window.nanoseconds / 1_000_000_000) s"
            }
        }
    }

    private struct State {
        var startingUp = 0
        var startingUpBySource: [String: Int] = [:]
        var rate: SourceRateLimiter
    }

    private let maxStartups: Int
    private let maxStartupsPerSource: Int
    private let state: NIOLockedValueBox<State>

    init(limits: SSHServerLimits) {
        self.maxStartups = limits.maxStartups
        self.maxStartupsPerSource = limits.maxStartupsPerSource
        self.state = NIOLockedValueBox(
            State(
                rate: SourceRateLimiter(limit: limits.perSourceConnections, window: TimeAmount(limits.perSourceWindow))))
    }

    /// Takes a start-up slot for a connection from `source`, or says why not.
    func admit(source: String, now: NIODeadline = .now()) -> Refusal? {
        state.withLockedValue { state in
            guard state.rate.admit(source, now: now) else {
                return .sourceRateExceeded(limit: state.rate.limit, window: state.rate.window)
            }
            guard state.startingUp < maxStartups else {
                return .tooManyStartups(limit: maxStartups)
            }
            guard state.startingUpBySource[source, default: 0] < maxStartupsPerSource else {
                return .tooManyStartupsFromSource(limit: maxStartupsPerSource)
            }
            state.startingUp += 1
            state.startingUpBySource[source, default: 0] += 1
            return nil
        }
    }

    /// Gives back a start-up slot: the connection started its first session, or closed.
    func startupEnded(source: String) {
        state.withLockedValue { state in
            state.startingUp -= 1
            let left = state.startingUpBySource[source, default: 1] - 1
            state.startingUpBySource[source] = left > 0 ? left : nil
        }
    }

    var connectionsStartingUp: Int {
        state.withLockedValue { $0.startingUp }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        self = .nanoseconds(duration.totalNanoseconds)
    }
}
