import Logging

/// Everything the server needs, as one value. The app decides policy through
/// ``authorization`` and ``launcher``; the server never decides what runs.
public struct SSHServerConfiguration: Sendable {
    /// Address to listen on; default loopback only.
    public var host = "127.0.0.1"
    /// Port to listen on; 0 picks a free port (read it from ``SSHServer/boundPort``).
    public var port = 2222
    /// The Ed25519 host key file, created (0600) on first start and re-read on every start.
    public var hostKeyPath: String
    /// The comment written into a newly created host key.
    public var hostKeyComment = "tabshell host key"
    public var authorization: SSHAuthorization
    /// How often the authorized keys file is checked for changes (one stat per check).
    public var authorizedKeysCheckInterval: Duration = .seconds(2)
    public var limits = SSHServerLimits()
    /// Prefix of the one-line messages sent to clients, e.g. `tabshell: port forwarding is not offered.`
    public var serverName = "tabshell"
    /// Decides what each session runs.
    public var launcher: SSHSessionLauncher
    /// Connects, authentications (fingerprint and name, never key material), refusals, disconnects.
    public var logger: Logger

    public init(
        hostKeyPath: String, authorization: SSHAuthorization,
        logger: Logger = Logger(label: "tabshell.ssh"), launcher: @escaping SSHSessionLauncher
    ) {
        self.hostKeyPath = hostKeyPath
        self.authorization = authorization
        self.logger = logger
        self.launcher = launcher
    }
}
