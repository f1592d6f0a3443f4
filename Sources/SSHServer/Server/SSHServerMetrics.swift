import CoreMetrics

/// What the server counts, through swift-metrics' API (`serve --metrics` boots a Prometheus
/// backend; without one these are no-ops). Every label value comes from a fixed list here, never
/// from a client: no address, key, fingerprint or name is ever a label.
public enum SSHServerMetrics {
    /// `tabshell_connections_refused_total{reason}`: connections closed before the SSH banner.
    public static let connectionsRefused = "tabshell_connections_refused_total"
    /// `tabshell_sessions_refused_total{reason}`: session requests refused on an open connection.
    public static let sessionsRefused = "tabshell_sessions_refused_total"
    /// `tabshell_auth_attempts_total{result}`: keys (or, in demo mode, logins) offered and decided.
    public static let authAttempts = "tabshell_auth_attempts_total"
    /// `tabshell_connections_accepted_total`: connections admitted past the accept-time limits.
    public static let connectionsAccepted = "tabshell_connections_accepted_total"

    /// Why a connection was closed before the banner (``ConnectionAdmission/Refusal``).
    public enum ConnectionRefusal: String, CaseIterable, Sendable {
        case maxConnections = "max_connections"
        case maxStartups = "max_startups"
        case randomEarlyDrop = "random_early_drop"
        case perSourceStartups = "per_source_startups"
        case rate = "per_source_rate"
        case wrongGuesses = "per_source_wrong_guesses"
    }

    /// Why a session request was refused (each a refusal site of ``SessionChannelHandler``).
    public enum SessionRefusal: String, CaseIterable, Sendable {
        case maxSessions = "max_sessions"
        case perConnection = "max_sessions_per_connection"
        case perSource = "max_sessions_per_source"
        case perKey = "max_sessions_per_key"
        case keyRevoked = "key_revoked"
        case nulInCommand = "nul_in_command"
        case noTerminal = "no_terminal"
        case launcher
        case wrongGuess = "wrong_guess"
        case subsystem
        case spawnFailed = "spawn_failed"
    }

    public enum AuthResult: String, CaseIterable, Sendable {
        case accepted, refused
    }

    /// Each metric's `# HELP` text, for an exposition that wants one (swift-metrics has none).
    public static let help: [String: String] = [
        connectionsRefused: "Connections closed before the SSH banner, by the limit that refused them.",
        sessionsRefused: "Session requests refused on an open connection, by reason.",
        authAttempts: "Authentication attempts with a key (or a demo login), by result.",
        connectionsAccepted: "Connections admitted past the accept-time limits.",
    ]

    /// Makes every series at zero, so a scrape shows each reason before it first happens.
    public static func declareAll() {
        for reason in ConnectionRefusal.allCases { _ = Counter(label: connectionsRefused, dimensions: [("reason", reason.rawValue)]) }
        for reason in SessionRefusal.allCases { _ = Counter(label: sessionsRefused, dimensions: [("reason", reason.rawValue)]) }
        for result in AuthResult.allCases { _ = Counter(label: authAttempts, dimensions: [("result", result.rawValue)]) }
        _ = Counter(label: connectionsAccepted)
    }

    static func refused(_ reason: ConnectionRefusal) { Counter(label: connectionsRefused, dimensions: [("reason", reason.rawValue)]).increment() }

    static func refused(_ reason: SessionRefusal) { Counter(label: sessionsRefused, dimensions: [("reason", reason.rawValue)]).increment() }

    static func authenticated(_ result: AuthResult) { Counter(label: authAttempts, dimensions: [("result", result.rawValue)]).increment() }

    static func accepted() { Counter(label: connectionsAccepted).increment() }
}
