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
            never another person's; tabshell replay FILE plays one. ssh -t host present shares a session under a \
            watch code and ssh -t host watch CODE follows it at the watcher's own size (--max-watchers, --max-watchers-total). Runs in the foreground; logs to tabshell.log beside the database, and one line per \
            event on standard error when it is a terminal. SIGTERM or Ctrl-C stops it within 2 seconds. SIGUSR2 upgrades without dropping anyone: the binary installed now at the same path starts on the same listening socket and serves every new connection, while this server keeps its sessions until they end (at most --drain-limit).
            """
    )

    @OptionGroup var options: ServeOptions

    @Option(
        help: ArgumentHelp(
            "Read serve's options from this TOML file (each by its long name: max-sessions = 64, demo = true); options on the command line win. Read again on SIGHUP: a file with problems keeps the running configuration.",
            valueName: "file"),
        completion: .file())
    var config: String?

    @Flag(help: "Check the options and the --config file, say every problem, and start nothing.")
    var check = false

    /// `--record DIR`: terminal sessions as asciicast v2 files (*.cast, 0600) in DIR, made 0700
    /// if missing: in demo mode every session, in team mode only sessions started with present.
    @OptionGroup var recordOption: RecordOption
    var record: String? { recordOption.path }

    @Option(help: ArgumentHelp("The most one recording may hold (e.g. 32M); over it the cast stops growing and the log says so.", valueName: "size"))
    var recordSessionLimit = "32M"

    @Option(
        help: ArgumentHelp(
            "The most all recordings in the folder may hold, the casts already there included (e.g. 1G); over it no recording grows.",
            valueName: "size"))
    var recordTotalLimit = "1G"

    @Option(
        help: ArgumentHelp(
            "The most one visitor's recordings may hold (an address in demo mode, a person in team mode; default: an eighth of --record-total-limit).",
            valueName: "size"))
    var recordVisitorLimit: String?

    @Option(help: ArgumentHelp("The most people one presentation (ssh -t host present) may have watching (ssh -t host watch CODE).", valueName: "n"))
    var maxWatchers = ServePresenting.defaultPerPresentation

    @Option(help: ArgumentHelp("The most watchers of all presentations together; over it watch is refused in one sentence.", valueName: "n"))
    var maxWatchersTotal = ServePresenting.defaultTotal

    @Option(
        help: ArgumentHelp(
            "After an upgrade (SIGUSR2, systemctl reload), how long the old server keeps its running sessions before it ends them (e.g. 30m, 1h; 0 ends them at once).",
            valueName: "time"))
    var drainLimit = "1h"

    func validate() throws {
        guard TimeText.seconds(drainLimit) != nil else { throw ValidationError("--drain-limit needs a time such as 30m or 1h.") }
        guard (1...100_000).contains(maxWatchers), (1...100_000).contains(maxWatchersTotal) else {
            throw ValidationError("--max-watchers and --max-watchers-total must be between 1 and 100000.")
        }
        for (name, text) in [
            ("--record-session-limit", recordSessionLimit), ("--record-total-limit", recordTotalLimit),
            ("--record-visitor-limit", recordVisitorLimit ?? "1"),
        ] {
            guard let bytes = MemorySize.bytes(text), bytes > 0, bytes <= UInt64(Int.max) else {
                throw ValidationError("\(name) needs a size such as 32M or 1G.")
            }
        }
    }

    func run() throws {
        if check {
            try checkOnly()
            return
        }
        // A server started by an upgrade takes the listening socket it was handed; the
        // variables that say so are gone from the environment before any session starts.
        let handed = ServeUpgrade.handed()
        umask(0o077)
        let metrics = bootMetrics()
        let url = options.database.databaseURL()
        let dataFolder = url.deletingLastPathComponent()
        guard let address = ListenAddress(options.listen), let window = TimeText.seconds(options.resumeWindow),
            let grace = TimeText.seconds(options.loginGraceTime), let drain = TimeText.seconds(drainLimit)
        else { throw ValidationError("Bad --listen or time.") }

        // The database is opened (made, migrated) once here, so sessions never race to do it.
        var storeEnvironment: [String: String] = [:]
        if !options.demo {
            let environment = ProcessInfo.processInfo.environment
            let store = try options.database.openStore(environment: environment, logger: serverLogger(beside: url))
            if let server = store as? PostgresStore, let text = options.database.postgresURL(environment: environment) {
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
        if options.demo {
            // Demo folders a server that did not stop left behind (SIGKILL, a crash) go first.
            let swept = DemoDataSets.sweep()
            if swept > 0 {
                logger.notice("removed demo folders left by a server that did not stop", metadata: ["count": "\(swept)"])
                print("Removed \(swept) demo folder\(swept == 1 ? "" : "s") left by a server that did not stop.")
            }
            demoSets = try DemoDataSets.serving()
        }
        let memoryLimit = MemorySize.bytes(options.sessionMemoryLimit).flatMap { $0 > 0 ? $0 : nil }
        var recordings: ServeRecordings?
        if let record {
            do {
                recordings = try ServeRecordings(
                    folder: (record as NSString).expandingTildeInPath,
                    sessionLimit: Int(MemorySize.bytes(recordSessionLimit) ?? 0), totalLimit: Int(MemorySize.bytes(recordTotalLimit) ?? 0),
                    visitorLimit: recordVisitorLimit.flatMap(MemorySize.bytes).map { Int($0) }, logger: logger)
            } catch {
                demoSets?.removeAll()
                throw Failure(error.sentence)
            }
        }
        // Presentations folders (and presenters' sockets) a server that did not stop left behind.
        let sweptPresentations = ServePresenting.sweep()
        if sweptPresentations > 0 {
            logger.notice("removed presentations folders left by a server that did not stop", metadata: ["count": "\(sweptPresentations)"])
        }
        let presenting: ServePresenting
        do {
            presenting = try ServePresenting(perPresentation: maxWatchers, total: maxWatchersTotal)
        } catch {
            demoSets?.removeAll()
            throw Failure("The folder for presentations could not be made: \(error.localizedDescription)")
        }
        defer { presenting.remove() }
        let launcher = ServeLauncher(
            executable: executable,
            data: demoSets.map { .demo($0) } ?? .team(database: url, environment: storeEnvironment),
            resumeWindowSeconds: window, logLevel: options.database.logLevel, logger: logger, memoryLimit: memoryLimit,
            recordings: recordings, presenting: presenting, uploadQuota: options.uploadQuota, logEnvironment: options.logFormat.sessionEnvironment)
        var configuration = SSHServerConfiguration(
            hostKeyPath: options.hostKey.map { ($0 as NSString).expandingTildeInPath }
                ?? dataFolder.appendingPathComponent("ssh_host_ed25519_key").path,
            authorization: options.authorizedKeys.map { .authorizedKeysFile(($0 as NSString).expandingTildeInPath) } ?? .open,
            logger: logger,
            launcher: ServeSessionMetrics.counting(launcher.launcher))
        configuration.host = address.host
        configuration.port = address.port
        configuration.inheritedListener = handed?.listener
        configuration.limits.maxSessions = options.maxSessions
        configuration.limits.maxSessionsPerSource = options.maxSessionsPerSourceInForce
        configuration.limits.maxSessionsPerKey = options.maxSessionsPerKeyInForce
        configuration.limits.maxWrongGuesses = options.maxWatchTries
        configuration.limits.perSourceWrongGuesses = options.perSourceWatchTries
        guard let startups = MaxStartupsText(options.maxStartups) else { throw ValidationError("Bad --max-startups.") }
        configuration.limits.maxStartups = startups.full
        configuration.limits.maxStartupsDropStart = startups.start
        configuration.limits.maxStartupsDropRate = startups.rate
        configuration.limits.maxStartupsPerSource = min(options.perSourceMaxStartups, startups.full)
        configuration.limits.maxConnections = options.maxConnections
        configuration.limits.revokeEndsSessions = options.revokeEndsSessions
        configuration.limits.perSourceConnections = options.perSourceConnections
        configuration.limits.maxAuthTries = options.maxAuthTries
        configuration.limits.loginGraceTime = .seconds(grace)
        configuration.limits.idleTimeout = options.idleTimeoutSeconds.map { .seconds($0) }
        // The app shows the idle notice on its status line on SIGUSR1 (a curses screen would
        // be drawn over by a line).
        configuration.idleNoticeSignal = SIGUSR1
        if options.sessionTemplate {
            configuration.sessionTemplate = SessionTemplate(executablePath: executable, logger: logger)
        }
        let server = SSHServer(configuration: configuration)

        // What the file said at start, to tell what a SIGHUP's reading changed.
        let running = config.map { Self.readConfig(($0 as NSString).expandingTildeInPath).entries } ?? []
        // Signals first, so a SIGTERM during start-up is not lost.
        let events = ServeEvents()
        let signals = ServeSignals(
            reload: { [config] in
                if let config { Self.reread(config, running: running, logger: logger) }
                if case .failure(let error)? = server.reloadAuthorizedKeys() {
                    logger.error("authorized keys unreadable on SIGHUP", metadata: ["error": "\(error)"])
                }
            },
            stop: { events.post(.stop) }, upgrade: { events.post(.upgrade) })

        let report: SSHServerStartReport
        switch Self.wait({ try await server.start() }) {
        case let .success(started): report = started
        case let .failure(error):
            signals.cancel()
            throw Failure("\(error)")
        }
        for line in report.lines { print(line) }
        if let metrics {
            do {
                try startMetrics(metrics, recordings: recordings, presenting: presenting, demoSets: demoSets, upgraded: handed != nil, logger: logger)
            } catch {
                _ = Self.wait { await server.stop() }
                signals.cancel()
                demoSets?.removeAll()
                throw error
            }
        }
        let target = address.host == "0.0.0.0" || address.host == "::" ? "HOST" : address.host
        let portPart = report.port == 22 ? "" : "-p \(report.port) "
        print(
            options.demo
                ? "Demo mode: anyone can connect, each on throw-away data: ssh \(portPart)\(target)"
                : "Connect with: ssh \(portPart)\(target)   (resume window \(options.resumeWindow))")
        if let handed {
            print("Upgraded: this server (pid \(getpid())) serves new connections; pid \(handed.predecessor) keeps its sessions until they end.")
            ServeUpgrade.sayReady(handed)
        }
        // A unit of Type=notify (the package's) learns the server is ready, and which process it is.
        ServiceManager.notify("READY=1\nMAINPID=\(getpid())")
        fflush(nil)

        let upgrade = UpgradePlan(path: Self.startedPath() ?? executable, arguments: Array(CommandLine.arguments.dropFirst()), drainLimit: .seconds(drain))
        // After a hand-over the new server takes the metrics port (it waits for it).
        serveUntilStopped(server, events: events, upgrade: upgrade, predecessor: handed?.predecessor, logger: logger) {
            if let metrics { _ = Self.wait { await metrics.stop() } }
        }
        if let metrics { _ = Self.wait { await metrics.stop() } }
        signals.cancel()
        demoSets?.removeAll()
    }

    // MARK: - Helpers

    /// The absolute path of the binary running now: sessions run exactly it.
    static func runningExecutable() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") else { return nil }
        return path
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
