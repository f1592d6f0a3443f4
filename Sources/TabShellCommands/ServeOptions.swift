import ArgumentParser
import Foundation
import ServePolicy
import Storage

/// `tabshell serve`'s options (all but `--record`'s, which the app shares): the database, where
/// it listens, who may log in, the resume window and the connection and session limits, checked
/// as they are parsed. The executable's `ServeCommand` runs the server from them.
public struct ServeOptions: ParsableArguments {
    @OptionGroup public var database: DatabaseOptions

    @Option(help: ArgumentHelp("Address and port to listen on.", valueName: "addr:port"))
    public var listen = "127.0.0.1:2222"

    @Option(
        help: ArgumentHelp("The Ed25519 host key, created (0600) on first start (default: ssh_host_ed25519_key beside the database).", valueName: "path"),
        completion: .file())
    public var hostKey: String?

    @Option(
        help: ArgumentHelp("Team mode: who may log in, in OpenSSH's authorized_keys format; a key's comment is the person's name.", valueName: "file"),
        completion: .file())
    public var authorizedKeys: String?

    @OptionGroup public var demoOption: DemoOption
    public var demo: Bool { demoOption.demo }

    @Option(help: ArgumentHelp("How long after a dropped connection a person gets back what they had (e.g. 90s, 10m, 1h; 0 turns it off).", valueName: "time"))
    public var resumeWindow = "10m"

    @Option(help: ArgumentHelp("Sessions running at once, server-wide.", valueName: "n"))
    public var maxSessions = 64

    @Option(
        help: ArgumentHelp(
            "Sessions one address (an IPv6 /64) may run at once, watchers included (default: an eighth of --max-sessions).", valueName: "n"))
    public var maxSessionsPerSource: Int?

    @Option(help: ArgumentHelp("Sessions one key may run at once (default: an eighth of --max-sessions).", valueName: "n"))
    public var maxSessionsPerKey: Int?

    /// An eighth of the server's sessions, at least one: what one address or key may hold by default.
    public var defaultShareOfSessions: Int { max(1, maxSessions / 8) }
    public var maxSessionsPerSourceInForce: Int { maxSessionsPerSource ?? defaultShareOfSessions }
    public var maxSessionsPerKeyInForce: Int { maxSessionsPerKey ?? defaultShareOfSessions }

    @Option(help: ArgumentHelp("Wrong watch codes one connection may give; it is closed at the last (as sshd's MaxAuthTries).", valueName: "n"))
    public var maxWatchTries = 3

    @Option(
        help: ArgumentHelp(
            "Wrong watch codes one address may give in 10 minutes; at the limit its connections are closed and new ones refused until the oldest try is 10 minutes old.",
            valueName: "n"))
    public var perSourceWatchTries = 10

    @Option(help: ArgumentHelp("Photos one visitor's uploads (photos add) may hold: one person in team mode, one address in demo mode.", valueName: "n"))
    public var maxUploads = 20

    @Option(help: ArgumentHelp("The most one visitor's uploads may hold together (e.g. 100M).", valueName: "size"))
    public var maxUploadTotal = "100M"

    /// `--max-uploads` and `--max-upload-total` as one quota.
    public var uploadQuota: UploadQuota {
        UploadQuota(count: maxUploads, bytes: Int64(clamping: MemorySize.bytes(maxUploadTotal) ?? 0))
    }

    @Option(
        help: ArgumentHelp(
            "Connections not yet running a session (sshd's MaxStartups): start:rate:full refuses new ones with a probability rising from rate % at start to 100 % at full; a single number is a plain limit.",
            valueName: "start:rate:full"))
    public var maxStartups = "10:30:100"

    @Option(help: ArgumentHelp("Of those, how many one address may hold (sshd's PerSourceMaxStartups).", valueName: "n"))
    public var perSourceMaxStartups = 4

    @Option(help: ArgumentHelp("New connections one address may make per minute.", valueName: "n"))
    public var perSourceConnections = 30

    @Option(help: ArgumentHelp("Time to log in and start a session (sshd's LoginGraceTime).", valueName: "time"))
    public var loginGraceTime = "30s"

    @Option(help: ArgumentHelp("Keys a client may offer per connection (sshd's MaxAuthTries).", valueName: "n"))
    public var maxAuthTries = 6

    @Option(
        help: ArgumentHelp(
            "Close a connection with no input for this long, after a notice a minute before (default: 30m with --demo, never in team mode; 0: never).",
            valueName: "time"))
    public var idleTimeout: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Fork terminal sessions from a warmed copy of tabshell started once, sharing its loaded pages (less memory per session, a faster start); --no-session-template starts each one afresh."
    )
    public var sessionTemplate = true

    @Flag(
        inversion: .prefixedNo,
        help: "When a key leaves the authorized keys file (on change or SIGHUP), also hang up the sessions it is running (drafts are kept); either way it can start no new one.")
    public var revokeEndsSessions = true

    @Option(help: ArgumentHelp("Connections open at once, server-wide.", valueName: "n"))
    public var maxConnections = 256

    /// The idle timeout in force: the flag's, else 30 minutes in demo mode; nil for never.
    public var idleTimeoutSeconds: Int? {
        let seconds = idleTimeout.flatMap(TimeText.seconds) ?? (demo ? 30 * 60 : 0)
        return seconds > 0 ? seconds : nil
    }

    @Option(
        help: ArgumentHelp(
            "Memory each session may use (its child's data limit, e.g. 512M, 1G; 0: no limit of its own). A session over it ends alone.",
            valueName: "size"))
    public var sessionMemoryLimit = "512M"

    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics (/metrics), /healthz and /readyz over HTTP: a port on 127.0.0.1, or host:port (0: a free port). Off by default.",
            valueName: "[host:]port"))
    public var metrics: String?

    /// `--metrics` as an address: a bare port is on loopback.
    public var metricsAddress: ListenAddress? {
        guard let metrics else { return nil }
        if let port = Int(metrics), (0...65535).contains(port) { return ListenAddress("127.0.0.1:\(port)") }
        return ListenAddress(metrics)
    }

    @Option(
        help: ArgumentHelp(
            "How the server writes tabshell.log: text (lines to read) or json (one object a line, for a log shipper); fail2ban's filter reads both.",
            valueName: "format"))
    public var logFormat: LogFormat = .text

    public init() {}

    public func validate() throws {
        if demo == (authorizedKeys != nil) {
            throw ValidationError("Choose who may log in: --authorized-keys FILE (team mode) or --demo (anyone, on throw-away data).")
        }
        if demo, database.path != nil {
            throw ValidationError("--demo gives each connection its own throw-away data; leave out --db.")
        }
        if metrics != nil, metricsAddress == nil {
            throw ValidationError("--metrics needs a port such as 9464, or an address and a port such as 127.0.0.1:9464 or [::1]:9464.")
        }
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen needs an address and a port, such as 127.0.0.1:2222 or [::1]:2222.")
        }
        for (name, text) in [("--resume-window", resumeWindow), ("--login-grace-time", loginGraceTime), ("--idle-timeout", idleTimeout ?? "1s")] {
            guard TimeText.seconds(text) != nil else {
                throw ValidationError("\(name) needs a time such as 90s, 10m or 1h.")
            }
        }
        guard let uploadBytes = MemorySize.bytes(maxUploadTotal), uploadBytes > 0, maxUploads > 0 else {
            throw ValidationError("--max-uploads needs a number of photos and --max-upload-total a size such as 100M, both over 0.")
        }
        if MemorySize.bytes(sessionMemoryLimit) == nil {
            throw ValidationError("--session-memory-limit needs a size such as 512M or 1G (0 for no limit).")
        }
        guard MaxStartupsText(maxStartups) != nil else {
            throw ValidationError("--max-startups needs a number such as 16, or start:rate:full such as 10:30:100 (start ≤ full, rate ≤ 100).")
        }
        let limits = [
            maxSessions, maxAuthTries, perSourceMaxStartups, perSourceConnections, maxConnections, maxWatchTries, perSourceWatchTries,
            maxSessionsPerSourceInForce, maxSessionsPerKeyInForce,
        ]
        if limits.contains(where: { $0 < 1 }) {
            throw ValidationError(
                "The limits (--max-sessions, --max-sessions-per-…, --max-startups, --per-source-…, --max-auth-tries, --max-watch-tries) must be at least 1.")
        }
    }
}

/// `--demo`, for the app and for `serve`. argument-parser hands an option to the first command
/// of the line that declares it, unless both declare the same option type: then both see it.
public struct DemoOption: ParsableArguments {
    @Flag(
        help: "Throw-away demo data with sample requests, records and photos, deleted afterwards. With serve: anyone gets in without a key, each connection on its own demo data.")
    public var demo = false

    public init() {}
}
