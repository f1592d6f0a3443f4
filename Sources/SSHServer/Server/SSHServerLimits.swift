/// Limits against load and hostile clients, named after the sshd_config knobs admins know.
public struct SSHServerLimits: Sendable, Equatable {
    /// Sessions (child processes) running at once, server-wide. Unlike sshd's MaxSessions this
    /// counts across connections; see ``maxSessionsPerConnection`` for sshd's meaning.
    public var maxSessions = 64
    /// Sessions one connection may run at once (sshd's MaxSessions).
    public var maxSessionsPerConnection = 10
    /// Sessions one address may run at once, across all its connections (an IPv6 address
    /// counts with its whole /64, which one host usually holds): one visitor never holds more
    /// than a small share of ``maxSessions`` (by default an eighth). Watchers are sessions too.
    public var maxSessionsPerSource = 8
    /// Sessions one key may run at once, across all its connections and addresses (a session
    /// whose client offered no key is counted by its address only).
    public var maxSessionsPerKey = 8
    /// Channels one connection may hold open at once, running or not (each may buffer up to
    /// one SSH window, 2 MiB, of the client's input). Further channel opens are refused.
    public var maxChannelsPerConnection = 10
    /// TCP connections held at once, server-wide, whatever their state. Further ones are
    /// closed at once, before the SSH banner. Each costs one descriptor (and a session up to
    /// four more): 256 connections and 64 sessions stay within a 1024-descriptor limit.
    public var maxConnections = 256
    /// Connections that have not yet started a session, unauthenticated ones included (sshd's
    /// MaxStartups `start:rate:full`, here ``maxStartupsDropStart``:``maxStartupsDropRate``:
    /// `maxStartups`). At `maxStartups` further connections are closed at once; from
    /// ``maxStartupsDropStart`` on, each new one is refused with a probability rising linearly
    /// from ``maxStartupsDropRate`` % to 100 % (random early drop), so a crowd of silent
    /// connections slows people down instead of locking them out.
    public var maxStartups = 100
    /// Where random early drop begins (sshd's `start`). At or over ``maxStartups``: no random
    /// drop, a plain limit (sshd's single-number MaxStartups).
    public var maxStartupsDropStart = 10
    /// The refusal probability, in percent, at ``maxStartupsDropStart`` (sshd's `rate`).
    public var maxStartupsDropRate = 30
    /// Of those, how many one address may hold (sshd's PerSourceMaxStartups), so that one host's
    /// slow or half-open connections cannot fill every start-up slot.
    public var maxStartupsPerSource = 4
    /// Time a connection has to authenticate and ask for its first session (sshd's LoginGraceTime),
    /// and time a connection may then stay without any session running (after a refused
    /// command, after its last session ended) before it is closed: no connection is parked.
    public var loginGraceTime: Duration = .seconds(30)
    /// Keys a client may offer per connection (sshd's MaxAuthTries): after that it is disconnected.
    public var maxAuthTries = 6
    /// Wrong guesses of a secret a connection may make (a launcher's
    /// ``SSHSessionDecision/wrongGuess(_:)``, such as a watch code no presentation has): the
    /// connection is closed after the last, as sshd closes one after MaxAuthTries keys.
    public var maxWrongGuesses = 3
    /// Wrong guesses one address may make within ``perSourceGuessWindow``, across its
    /// connections; at the limit its connections are closed at their next wrong guess and new
    /// ones are refused until the oldest guess leaves the window (in the spirit of sshd's
    /// PerSourcePenalties).
    public var perSourceWrongGuesses = 10
    public var perSourceGuessWindow: Duration = .seconds(600)
    /// New connections one address may make within ``perSourceWindow`` (in the spirit of sshd's
    /// PerSourcePenalties); further ones are closed at once.
    public var perSourceConnections = 30
    public var perSourceWindow: Duration = .seconds(60)
    /// Close a connection after this long without input from the client once it has asked for a
    /// session (data, keys, window changes and new requests; before its first session,
    /// ``loginGraceTime`` judges it); nil for never. Its sessions get a notice ``idleNoticeLead``
    /// before (see ``SSHServerConfiguration/idleNoticeSignal``).
    public var idleTimeout: Duration? = nil
    /// How long before the idle timeout the notice is given: this, or half the timeout when
    /// that is shorter.
    public var idleNoticeLead: Duration = .seconds(60)
    /// After a dropped connection the child gets SIGHUP; if still running after this long, SIGKILL.
    public var hangUpGrace: Duration = .seconds(10)
    /// On ``SSHServer/stop()``: time children get after SIGHUP before SIGKILL. stop() returns
    /// within this plus about half a second.
    public var stopGrace: Duration = .seconds(1)
    /// When a reload of the authorized keys file drops a key, also hang up (SIGHUP, then SIGKILL
    /// after ``hangUpGrace``) the sessions running on connections that key authenticated. Either
    /// way such a connection can start no new session, and one running none is closed.
    public var revokeEndsSessions = true

    /// The widest terminal a session gets: a client asking for more (pty-req or window-change)
    /// gets this many columns. A screen is rarely over 500 columns; the app's allocations
    /// follow the size, so 65535×65535 must not reach it.
    public static let maxTerminalColumns = 1000
    /// The tallest terminal a session gets.
    public static let maxTerminalRows = 500
    /// The size used when the client sends 0 (SSH's "unknown").
    public static let defaultTerminalColumns = 80
    public static let defaultTerminalRows = 24

    /// A client's terminal size as a session gets it: 0 (or less) is the default, over the
    /// maximum is the maximum.
    public static func terminalSize(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        (
            columns <= 0 ? defaultTerminalColumns : min(columns, maxTerminalColumns),
            rows <= 0 ? defaultTerminalRows : min(rows, maxTerminalRows)
        )
    }

    /// The probability (0…1) that a new connection is refused with `startingUp` connections
    /// already starting up (sshd's MaxStartups random early drop).
    func startupDropProbability(startingUp: Int) -> Double {
        let start = min(maxStartupsDropStart, maxStartups)
        if startingUp >= maxStartups { return 1 }
        if startingUp < start { return 0 }
        let rate = Double(min(max(maxStartupsDropRate, 0), 100)) / 100
        return rate + (1 - rate) * Double(startingUp - start) / Double(maxStartups - start)
    }

    public init() {}
}
