import Logging

/// Everything the server needs, as one value. The app decides policy through
/// ``authorization`` and ``launcher``; the server never decides what runs.
public struct SSHServerConfiguration: Sendable {
    /// Address to listen on; default loopback only.
    public var host = "127.0.0.1"
    /// Port to listen on; 0 picks a free port (read it from ``SSHServerStartReport/port``).
    public var port = 2222
    /// A listening socket handed over by the server this one follows (an upgrade): the server
    /// takes it instead of binding ``host`` and ``port``, which then only name it in messages.
    public var inheritedListener: Int32?
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
    /// How a terminal session learns it is about to be closed for idleness
    /// (``SSHServerLimits/idleTimeout``): nil writes one line on the session's stderr (which a
    /// full-screen program's screen would show over its own); a signal number sends that signal
    /// to the child (its pid, not its group), for a program that shows the notice itself — it
    /// must handle the signal, whose default action ends most programs. A session without a
    /// terminal always gets the line on stderr.
    public var idleNoticeSignal: Int32?
    /// A number in 0..<1 for each MaxStartups random early drop; tests inject their own.
    var startupDropRandom: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// Terminal sessions that run its program are forked from this warmed template rather than
    /// exec'd (nil: every session is exec'd).
    public var sessionTemplate: SessionTemplate?
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
