/// Limits against load and hostile clients, named after the sshd_config knobs admins know.
public struct SSHServerLimits: Sendable, Equatable {
    /// Sessions (child processes) running at once, server-wide. Unlike sshd's MaxSessions this
    /// counts across connections; see ``maxSessionsPerConnection`` for sshd's meaning.
    public var maxSessions = 64
    /// Sessions one connection may run at once (sshd's MaxSessions).
    public var maxSessionsPerConnection = 10
    /// Connections that have not yet started a session, unauthenticated ones included (sshd's
    /// MaxStartups, without the random early drop). Further connections are closed at once.
    public var maxStartups = 16
    /// Of those, how many one address may hold (sshd's PerSourceMaxStartups), so that one host's
    /// slow or half-open connections cannot fill every start-up slot.
    public var maxStartupsPerSource = 4
    /// Time a connection has to authenticate and ask for its first session (sshd's LoginGraceTime).
    public var loginGraceTime: Duration = .seconds(30)
    /// Keys a client may offer per connection (sshd's MaxAuthTries): after that it is disconnected.
    public var maxAuthTries = 6
    /// New connections one address may make within ``perSourceWindow`` (in the spirit of sshd's
    /// PerSourcePenalties); further ones are closed at once.
    public var perSourceConnections = 30
    public var perSourceWindow: Duration = .seconds(60)
    /// Close a connection after this long without any bytes from the client (sshd's
    /// ClientAliveInterval × ClientAliveCountMax); nil for never.
    public var idleTimeout: Duration? = nil
    /// After a dropped connection the child gets SIGHUP; if still running after this long, SIGKILL.
    public var hangUpGrace: Duration = .seconds(10)
    /// On ``SSHServer/stop()``: time children get after SIGHUP before SIGKILL. stop() returns
    /// within this plus about half a second.
    public var stopGrace: Duration = .seconds(1)

    public init() {}
}
