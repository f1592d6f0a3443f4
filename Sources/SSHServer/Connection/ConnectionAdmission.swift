import NIOConcurrencyHelpers
import NIOCore

/// Decides at accept time whether a connection may even start: the per-source rate and the
/// number of connections still starting up (sshd's MaxStartups).
final class ConnectionAdmission: Sendable {
    enum Refusal: Equatable, CustomStringConvertible {
        case tooManyStartups(limit: Int)
        case sourceRateExceeded(limit: Int, window: TimeAmount)

        var description: String {
            switch self {
            case .tooManyStartups(let limit):
                "\(limit) connections are already starting up"
            case .sourceRateExceeded(let limit, let window):
                "more than \(limit) connections from this address in \(window.nanoseconds / 1_000_000_000) s"
            }
        }
    }

    private struct State {
        var startingUp = 0
        var rate: SourceRateLimiter
    }

    private let maxStartups: Int
    private let state: NIOLockedValueBox<State>

    init(limits: SSHServerLimits) {
        self.maxStartups = limits.maxStartups
        self.state = NIOLockedValueBox(State(
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
            state.startingUp += 1
            return nil
        }
    }

    /// Gives back a start-up slot: the connection started its first session, or closed.
    func startupEnded() {
        state.withLockedValue { $0.startingUp -= 1 }
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
