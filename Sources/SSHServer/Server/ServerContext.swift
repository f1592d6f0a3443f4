import Logging
import NIOConcurrencyHelpers
import NIOCore

/// What every connection shares: configuration, keys, limits and the registries stop() uses.
final class ServerContext: Sendable {
    let configuration: SSHServerConfiguration
    let hostKey: SSHHostKey
    let authorizedKeys: AuthorizedKeysStore?
    let admission: ConnectionAdmission
    let sessions: SessionRegistry
    let connections = NIOLockedValueBox<[Int: Channel]>([:])
    private let lastConnectionID = NIOLockedValueBox(0)

    var logger: Logger { configuration.logger }
    var limits: SSHServerLimits { configuration.limits }

    init(configuration: SSHServerConfiguration, hostKey: SSHHostKey, authorizedKeys: AuthorizedKeysStore?) {
        self.configuration = configuration
        self.hostKey = hostKey
        self.authorizedKeys = authorizedKeys
        self.admission = ConnectionAdmission(limits: configuration.limits)
        self.sessions = SessionRegistry(limits: configuration.limits)
    }

    func nextConnectionID() -> Int {
        lastConnectionID.withLockedValue {
            $0 += 1
            return $0
        }
    }

    /// A line for the client: `tabshell: sentence`. The sentence may quote what the client sent
    /// (a launcher's refusal): it is made printable, so no escape goes back to its terminal.
    func clientLine(_ sentence: String) -> String {
        "\(configuration.serverName): \(ClientText.printable(sentence, limit: 1000))"
    }
}
