import Logging
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// What every connection shares: configuration, keys, limits and the registries stop() uses.
final class ServerContext: Sendable {
    let configuration: SSHServerConfiguration
    let hostKey: SSHHostKey
    let authorizedKeys: AuthorizedKeysStore?
    let admission: ConnectionAdmission
    let sessions: SessionRegistry
    let connections = NIOLockedValueBox<[Int: Connection]>([:])
    private let lastConnectionID = Atomic<Int>(0)

    var logger: Logger { configuration.logger }
    var limits: SSHServerLimits { configuration.limits }

    /// An open connection, reachable from any thread: its channel, and its state on its loop.
    struct Connection: Sendable {
        let channel: Channel
        let state: NIOLoopBound<ConnectionState>
    }

    init(configuration: SSHServerConfiguration, hostKey: SSHHostKey, authorizedKeys: AuthorizedKeysStore?) {
        self.configuration = configuration
        self.hostKey = hostKey
        self.authorizedKeys = authorizedKeys
        self.admission = ConnectionAdmission(limits: configuration.limits, random: configuration.startupDropRandom)
        self.sessions = SessionRegistry(limits: configuration.limits)
        SSHServerMetrics.declareAll()
    }

    /// After a successful reload of the authorized keys: connections whose key is gone can
    /// start no new session; those running none are closed; with ``SSHServerLimits/revokeEndsSessions``
    /// their running sessions are hung up.
    func revokeConnectionsWithoutKeys() {
        guard let store = authorizedKeys else { return }
        let sessions = self.sessions
        for connection in connections.withLockedValue({ Array($0.values) }) {
            connection.channel.eventLoop.execute { connection.state.value.revalidate(against: store, sessions: sessions) }
        }
    }

    func nextConnectionID() -> Int { lastConnectionID.add(1, ordering: .relaxed).newValue }

    /// A line for the client: `tabshell: sentence`. The sentence may quote what the client sent
    /// (a launcher's refusal): it is made printable, so no escape goes back to its terminal.
    func clientLine(_ sentence: String) -> String {
        "\(configuration.serverName): \(ClientText.printable(sentence, limit: 1000))"
    }
}
