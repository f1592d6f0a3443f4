import ArgumentParser
import Dispatch
import Foundation
import Logging
import PostgresStorage
import SSHServer
import ServePolicy
import Storage
import Synchronization
import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

/// `tabshell serve`: tabshell's own SSH server. `ssh -p 2222 host` and you are in the app, as
/// yourself, with no Unix account and no sshd configuration; each session is the tabshell
/// binary in its own process on its own terminal. See docs/ssh-server.md.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve tabshell over SSH: ssh -p 2222 host and you are in, as yourself.",
        discussion: """
            Team mode (--authorized-keys FILE): OpenSSH's authorized_keys format, one Ed25519 or ECDSA key \
            per person, the key's comment being the person's name (kept with what they capture). The file \
            is re-read when it changes or on SIGHUP. Demo mode (--demo): anyone gets in without a key, each \
            connection on its own fresh demo data, deleted when it ends. Besides the app, ssh host COMMAND \
            runs: inbox add|list|import -, history list|export --format json|csv, photos add NAME|list|remove NAME \
            (photos add reads the image on standard input; captures take photos only from these uploads). \
            A person whose connection drops and who comes back within --resume-window finds everything as \
            it was. --record DIR writes terminal sessions as asciicast v2 files (*.cast, 0600) into DIR \
            (made 0700): in demo mode every session, in team mode only sessions started with present — \
            never another person's; tabshell replay FILE plays one. Runs in the foreground; logs to tabshell.log beside the database, and one line per \
            event on standard error when it is a terminal. SIGTERM or Ctrl-C stops it within 2 seconds.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("Address and port to listen on.", valueName: "addr:port"))
    var listen = "127.0.0.1:2222"

    @Option(
        name: .customLong("host-key"),
        help: ArgumentHelp("The Ed25519 host key, created (0600) on first start (default: ssh_host_ed25519_key beside the database).", valueName: "path"),
        completion: .file())
    var hostKey: String?

    @Option(
        name: .customLong("authorized-keys"),
        help: ArgumentHelp("Team mode: who may log in, in OpenSSH's authorized_keys format; a key's comment is the person's name.", valueName: "file"),
        completion: .file())
    var authorizedKeys: String?

    @OptionGroup var demoOption: DemoOption
    var demo: Bool { demoOption.demo }

    @Option(
        name: .customLong("resume-window"),
        help: ArgumentHelp("How long after a dropped connection a person gets back what they had (e.g. 90s, 10m, 1h; 0 turns it off).", valueName: "time"))
    var resumeWindow = "10m"

    @Option(name: .customLong("max-sessions"), help: ArgumentHelp("Sessions running at once, server-wide.", valueName: "n"))
    var maxSessions = 64

    @Option(
        name: .customLong("max-startups"),
        help: ArgumentHelp(
            "Connections not yet running a session (sshd's MaxStartups): start:rate:full refuses new ones with a probability rising from rate % at start to 100 % at full; a single number is a plain limit.",
            valueName: "start:rate:full"))
    var maxStartups = "10:30:100"

    @Option(name: .customLong("per-source-max-startups"), help: ArgumentHelp("Of those, how many one address may hold (sshd's PerSourceMaxStartups).", valueName: "n"))
    var perSourceMaxStartups = 4

    @Option(name: .customLong("per-source-connections"), help: ArgumentHelp("New connections one address may make per minute.", valueName: "n"))
    var perSourceConnections = 30

    @Option(name: .customLong("login-grace-time"), help: ArgumentHelp("Time to log in and start a session (sshd's LoginGraceTime).", valueName: "time"))
    var loginGraceTime = "30s"

    @Option(name: .customLong("max-auth-tries"), help: ArgumentHelp("Keys a client may offer per connection (sshd's MaxAuthTries).", valueName: "n"))
    var maxAuthTries = 6

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a connection with no input for this long, after a notice a minute before (default: 30m with --demo, never in team mode; 0: never).",
            valueName: "time"))
    var idleTimeout: String?

    @Flag(
        name: .customLong("revoke-ends-sessions"), inversion: .prefixedNo,
        help: "When a key leaves the authorized keys file (on change or SIGHUP), also hang up the sessions it is running (drafts are kept); either way it can start no new one.")
    var revokeEndsSessions = true

    @Option(name: .customLong("max-connections"), help: ArgumentHelp("Connections open at once, server-wide.", valueName: "n"))
    var maxConnections = 256

    /// The idle timeout in force: the flag's, else 30 minutes in demo mode; nil for never.
    var idleTimeoutSeconds: Int? {
        let seconds = idleTimeout.flatMap(TimeText.seconds) ?? (demo ? 30 * 60 : 0)
        return seconds > 0 ? seconds : nil
    }

    @Option(
        name: .customLong("session-memory-limit"),
        help: ArgumentHelp(
            "Memory each session may use (its child's data limit, e.g. 512M, 1G; 0: no limit of its own). A session over it ends alone.",
            valueName: "size"))
    var sessionMemoryLimit = "512M"

    /// `--record DIR`: terminal sessions as asciicast v2 files (*.cast, 0600) in DIR, made 0700
    /// if missing: in demo mode every session, in team mode only sessions started with present.
    @OptionGroup var recordOption: RecordOption
    var record: String? { recordOption.path }

    @Option(
        name: .customLong("record-session-limit"),
        help: ArgumentHelp("The most one recording may hold (e.g. 32M); over it the cast stops growing and the log says so.", valueName: "size"))
    var recordSessionLimit = "32M"

    @Option(
        name: .customLong("record-total-limit"),
        help: ArgumentHelp(
            "The most all recordings in the folder may hold, the casts already there included (e.g. 1G); over it no recording grows.",
            valueName: "size"))
    var recordTotalLimit = "1G"

    func validate() throws {
        for (name, text) in [("--record-session-limit", recordSessionLimit), ("--record-total-limit", recordTotalLimit)] {
            guard let bytes = MemorySize.bytes(text), bytes > 0, bytes <= UInt64(Int.max) else {
                throw ValidationError("\(name) needs a size such as 32M or 1G.")
            }
        }
        if demo == (authorizedKeys != nil) {
            throw ValidationError("Choose who may log in: --authorized-keys FILE (team mode) or --demo (anyone, on throw-away data).")
        }
        if demo, database.path != nil {
            throw ValidationError("--demo gives each connection its own throw-away data; leave out --db.")
        }
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen needs an address and a port, such as 127.0.0.1:2222 or [::1]:2222.")
        }
        for (name, text) in [("--resume-window", resumeWindow), ("--login-grace-time", loginGraceTime), ("--idle-timeout", idleTimeout ?? "1s")] {
            guard TimeText.seconds(text) != nil else {
                throw ValidationError("\(name) needs a time such as 90s, 10m or 1h.")
            }
        }
        if MemorySize.bytes(sessionMemoryLimit) == nil {
            throw ValidationError("--session-memory-limit needs a size such as 512M or 1G (0 for no limit).")
        }
        guard MaxStartupsText(maxStartups) != nil else {
            throw ValidationError("--max-startups needs a number such as 16, or start:rate:full such as 10:30:100 (start ≤ full, rate ≤ 100).")
        }
        if [maxSessions, maxAuthTries, perSourceMaxStartups, perSourceConnections, maxConnections].contains(where: { $0 < 1 }) {
            throw ValidationError("The limits (--max-sessions, --max-startups, --per-source-…, --max-auth-tries) must be at least 1.")
        }
    }

    func run() throws {
        umask(0o077)
        let url = database.databaseURL()
        let dataFolder = url.deletingLastPathComponent()
        guard let address = ListenAddress(listen), let window = TimeText.seconds(resumeWindow),
            let grace = TimeText.seconds(loginGraceTime)
        else { throw ValidationError("Bad --listen or time.") }

        // The database is opened (made, migrated) once here, so sessions never race to do it.
        var storeEnvironment: [String: String] = [:]
        if !demo {
            let environment = ProcessInfo.processInfo.environment
            let store = try database.openStore(environment: environment, logger: serverLogger(beside: url))
            if let server = store as? PostgresStore, let text = database.postgresURL(environment: environment) {
                storeEnvironment[DatabaseOptions.environmentVariable] = text
                // Sessions run with the person's folder as HOME: the password found here (URL,
                // PGPASSWORD or this account's ~/.pgpass) goes to them in their environment.
                if let password = server.location.password { storeEnvironment["PGPASSWORD"] = password }
                server.close()
            }
        } else {
            try? FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let logger = serverLogger(beside: url)
        guard let executable = Self.runningExecutable() else {
            throw Failure("tabshell cannot find its own executable (/proc/self/exe) to run sessions with.")
        }

        var demoSets: DemoDataSets?
        if demo {
            // Demo folders a server that did not stop left behind (SIGKILL, a crash) go first.
            let swept = DemoDataSets.sweep()
            if swept > 0 {
                logger.notice("removed demo folders left by a server that did not stop", metadata: ["count": "\(swept)"])
                print("Removed \(swept) demo folder\(swept == 1 ? "" : "s") left by a server that did not stop.")
            }
            demoSets = try DemoDataSets.serving()
        }
        let memoryLimit = MemorySize.bytes(sessionMemoryLimit).flatMap { $0 > 0 ? $0 : nil }
        var recordings: ServeRecordings?
        if let record {
            do {
                recordings = try ServeRecordings(
                    folder: (record as NSString).expandingTildeInPath,
                    sessionLimit: Int(MemorySize.bytes(recordSessionLimit) ?? 0), totalLimit: Int(MemorySize.bytes(recordTotalLimit) ?? 0),
                    logger: logger)
            } catch {
                demoSets?.removeAll()
                throw Failure(error.sentence)
            }
        }
        let launcher = ServeLauncher(
            executable: executable,
            data: demoSets.map { .demo($0) } ?? .team(database: url, environment: storeEnvironment),
            resumeWindowSeconds: window, logLevel: database.logLevel, logger: logger, memoryLimit: memoryLimit,
            recordings: recordings)
        var configuration = SSHServerConfiguration(
            hostKeyPath: hostKey.map { ($0 as NSString).expandingTildeInPath }
                ?? dataFolder.appendingPathComponent("ssh_host_ed25519_key").path,
            authorization: authorizedKeys.map { .authorizedKeysFile(($0 as NSString).expandingTildeInPath) } ?? .open,
            logger: logger,
            launcher: launcher.launcher)
        configuration.host = address.host
        configuration.port = address.port
        configuration.limits.maxSessions = maxSessions
        guard let startups = MaxStartupsText(maxStartups) else { throw ValidationError("Bad --max-startups.") }
        configuration.limits.maxStartups = startups.full
        configuration.limits.maxStartupsDropStart = startups.start
        configuration.limits.maxStartupsDropRate = startups.rate
        configuration.limits.maxStartupsPerSource = min(perSourceMaxStartups, startups.full)
        configuration.limits.maxConnections = maxConnections
        configuration.limits.revokeEndsSessions = revokeEndsSessions
        configuration.limits.perSourceConnections = perSourceConnections
        configuration.limits.maxAuthTries = maxAuthTries
        configuration.limits.loginGraceTime = .seconds(grace)
        configuration.limits.idleTimeout = idleTimeoutSeconds.map { .seconds($0) }
        // The app shows the idle notice on its status line on SIGUSR1 (a curses screen would
        // be drawn over by a line).
        configuration.idleNoticeSignal = SIGUSR1
        let server = SSHServer(configuration: configuration)

        // Signals first, so a SIGTERM during start-up is not lost.
        let stopping = SignalLatch()
        let signals = ServeSignals(
            reload: {
                if case .failure(let error)? = server.reloadAuthorizedKeys() {
                    logger.error("authorized keys unreadable on SIGHUP", metadata: ["error": "\(error)"])
                }
            },
            stop: { stopping.signal() })

        let report: SSHServerStartReport
        switch Self.wait({ try await server.start() }) {
        case let .success(started): report = started
        case let .failure(error):
            signals.cancel()
            throw Failure(sentence(for: error))
        }
        for line in report.lines { print(line) }
        let target = address.host == "0.0.0.0" || address.host == "::" ? "HOST" : address.hostForSSH
        let portPart = report.port == 22 ? "" : "-p \(report.port) "
        print(
            demo
                ? "Demo mode: anyone can connect, each on throw-away data: ssh \(portPart)\(target)"
                : "Connect with: ssh \(portPart)\(target)   (resume window \(resumeWindow))")
        fflush(nil)

        stopping.wait()
        _ = Self.wait { await server.stop() }
        signals.cancel()
        demoSets?.removeAll()
    }

    // MARK: - Helpers

    /// The log file beside the database, plus a one-line-per-event summary on standard error
    /// when it is a terminal.
    private func serverLogger(beside url: URL) -> Logger {
        let file = DatabaseOptions.logFile(beside: url)
        let level = database.logLevel
        let summary = isatty(STDERR_FILENO) == 1
        var logger = Logger(label: "tabshell.serve") { _ in
            var handlers: [any LogHandler] = [FileLogHandler(url: file, level: level)]
            if summary { handlers.append(SummaryLogHandler()) }
            return MultiplexLogHandler(handlers)
        }
        logger.logLevel = level
        return logger
    }

    /// The absolute path of the binary running now: sessions run exactly it.
    static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasPrefix("/") ? path : nil
    }

    /// Runs async work from this synchronous command and waits for it.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let box = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return box.withLock { $0 } ?? .failure(CancellationError())
    }
}

/// `--demo`, for the app and for `serve`. argument-parser hands an option to the first command
/// of the line that declares it, unless both declare the same option type: then both see it.
struct DemoOption: ParsableArguments {
    @Flag(
        help: "Throw-away demo data with sample requests, records and photos, deleted afterwards. With serve: anyone gets in without a key, each connection on its own demo data.")
    var demo = false
}
