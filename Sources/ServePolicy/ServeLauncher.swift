import Foundation
import Logging
import Presenting
import SSHServer
import Storage
import Synchronization

/// What each `tabshell serve` session runs: the tabshell binary itself, as the person, on the
/// session's terminal (the app) or with pipes (an allowed command). It decides from the
/// server's word on who connected (`SSHPeer.name`), never from the client's arguments.
public final class ServeLauncher: Sendable {
    /// Where the data is: one database for the team, or a fresh demo set per connection.
    public enum Data: Sendable {
        /// One store for the team: a file, or (with `environment`) the PostgreSQL server its
        /// `TABSHELL_DATABASE_URL` names, handed to sessions in their environment, never on a
        /// command line others can read.
        case team(database: URL, environment: [String: String] = [:])
        case demo(DemoDataSets)
    }

    public let executable: String
    public let data: Data
    /// How long after a dropped connection the person gets back what they had; 0 turns it off.
    public let resumeWindowSeconds: Int
    public let logLevel: Logger.Level
    /// Each session's data limit in bytes (`--session-memory-limit`; nil: none of its own).
    public let memoryLimit: UInt64?
    /// `--record DIR`: where sessions are recorded (nil: none are; see ``ServeRecordings``).
    public let recordings: ServeRecordings?
    /// `present` and `watch CODE`: the presentations' folder and watcher limits
    /// (nil: neither is offered).
    public let presenting: ServePresenting?
    /// What one visitor's uploads may hold (`photos add`): in demo mode across all the data sets
    /// of its address's connections, in team mode the person's folder.
    public let uploadQuota: UploadQuota
    /// The visitors with a `photos add` running: one at a time each, so two at once cannot both
    /// take what is left of the quota.
    private let uploading = Mutex<Set<String>>([])
    private let logger: Logger
    /// What a session's environment carries to write its log lines as the server does
    /// (`TABSHELL_LOG_FORMAT=json` with `serve --log-format json`; team mode, where they share a file).
    public let logEnvironment: [String: String]

    public init(
        executable: String, data: Data, resumeWindowSeconds: Int, logLevel: Logger.Level, logger: Logger,
        memoryLimit: UInt64? = nil, recordings: ServeRecordings? = nil, presenting: ServePresenting? = nil,
        uploadQuota: UploadQuota = .servedDefault, logEnvironment: [String: String] = [:]
    ) {
        self.logEnvironment = logEnvironment
        self.presenting = presenting
        self.uploadQuota = uploadQuota
        self.executable = executable
        self.data = data
        self.resumeWindowSeconds = resumeWindowSeconds
        self.logLevel = logLevel
        self.memoryLimit = memoryLimit
        self.recordings = recordings
        self.logger = logger
    }

    /// What the client reads when its session's child was killed (not hung up by the server):
    /// most likely it went over its memory limit, and only it ended.
    public static func sentence(for end: SSHSessionEnd, memoryLimit: UInt64?) -> String? {
        guard case .killed(let signal) = end.termination, !end.wasHungUp else { return nil }
        let limit = memoryLimit.map { " Each session may use up to \(MemorySize.text($0)) of memory; this one may have needed more." } ?? ""
        return "the session ended unexpectedly (signal \(signal)).\(limit) Reconnect to start again."
    }

    /// `watch CODE`: the watcher's app, with no store at all, following a live presentation
    /// the person may watch. A code that lets them in to none is a wrong guess (the server counts
    /// it against the connection and the address), said in one sentence whatever the reason;
    /// one watcher over the server's total is refused in another.
    private func watch(code: String, person: String, request: SSHSessionRequest, presenting: ServePresenting) -> SSHSessionDecision {
        let admitted: WatchCode
        switch presenting.admitWatcher(code: code, person: person) {
        case .admitted(let code): admitted = code
        case .noSuchPresentation(let sentence): return .wrongGuess(sentence)
        case .full(let sentence): return .refuse(sentence)
        }
        var session = sessionCommand(
            ["watch", admitted.text], environment: request.terminalEnvironment.merging(presenting.environment) { _, given in given },
            folder: presenting.directory, onExit: { _ in presenting.watcherLeft() })
        session.environment[PresentDirectory.watcherNameKey] = person
        return .run(session)
    }

    /// `mcp CODE` in the demo: an agent's MCP server onto the data set whose sessions show the
    /// agent code `CODE` in their heading (the visitor let the agent in by giving it), held open
    /// for as long as the agent stays. A code that names no live data set is a wrong guess,
    /// counted against the connection and the address like a wrong watch code.
    private func agentDoor(code: String?, person: String, request: SSHSessionRequest, sets: DemoDataSets) -> SSHSessionDecision {
        guard let code else {
            return .refuse("in the demo, mcp needs the agent code your tabshell session shows in its heading: ssh HOST mcp CODE.")
        }
        guard let (connection, database) = sets.joinByAgentCode(code) else {
            let shown = WatchCode(code)?.text ?? code
            return .wrongGuess("no demo session shows the agent code \(shown); check the code in the heading of your tabshell session.")
        }
        logger.info("agent door opened", metadata: ["person": "\(person)", "connection": "\(request.peer.connectionID)"])
        var session = sessionCommand(
            ["mcp", "--db", database.path, "--as", person, "--log-level", "\(logLevel)"], environment: request.localeEnvironment,
            folder: database.deletingLastPathComponent().path, onExit: { _ in sets.release(connectionID: connection) })
        let limit = memoryLimit
        session.sentenceAtEnd = { end in Self.sentence(for: end, memoryLimit: limit) }
        return .run(session)
    }

    /// This binary run with `arguments` in `folder` (its HOME too), under each session's memory
    /// limit. A client that sends no locale gets what a system's default locale would give (sshd's
    /// PAM sets it from /etc/default/locale): UTF-8, so the app draws its lines and accents.
    private func sessionCommand(
        _ arguments: [String], environment given: [String: String], folder: String, onExit: (@Sendable (SSHSessionEnd) -> Void)? = nil
    ) -> SSHSessionCommand {
        var environment = given
        if ["LANG", "LC_ALL", "LC_CTYPE"].allSatisfy({ (environment[$0] ?? "").isEmpty }) { environment["LANG"] = "C.UTF-8" }
        environment["HOME"] = folder
        var session = SSHSessionCommand(executablePath: executable, arguments: arguments, environment: environment, workingDirectory: folder, onExit: onExit)
        session.memoryLimit = memoryLimit
        return session
    }

    /// What is left of the visitor's quota for `folder`: the quota less what its uploads in
    /// other data sets hold (demo mode; the demo's own sample photos not counted), or the one
    /// sentence when nothing is.
    private func quotaLeft(for request: SSHSessionRequest, in folder: PersonFolder) -> Result<UploadQuota, AllowedCommand.Refusal> {
        guard case .demo(let sets) = data else { return .success(uploadQuota) }
        let samples = Set(DemoPNG.demoPictures().map(\.name))
        var count = 0
        var bytes: Int64 = 0
        for uploads in sets.uploadFolders(source: request.peer.source, except: request.peer.connectionID) {
            for name in uploads.names() where !samples.contains(name) {
                count += 1
                bytes += uploads.byteSize(of: name) ?? 0
            }
        }
        guard count < uploadQuota.count, bytes < uploadQuota.bytes else {
            return .failure(AllowedCommand.Refusal(uploadQuota.sentence(count: count, bytes: bytes)))
        }
        return .success(UploadQuota(count: uploadQuota.count - count, bytes: uploadQuota.bytes - bytes))
    }

    private var isDemo: Bool { if case .demo = data { true } else { false } }

    /// The launcher the server calls for each session.
    public var launcher: SSHSessionLauncher {
        { [self] request in decide(request) }
    }

    public func decide(_ request: SSHSessionRequest, now: Date = Date()) -> SSHSessionDecision {
        let person: String
        switch data {
        case .team:
            if let problem = PersonName.problem(with: request.peer.name) {
                return .refuse("your key's comment cannot be used as a name (\(problem)) Ask for it to be changed.")
            }
            person = request.peer.name
        case .demo:
            // Demo names are whatever login the visitor typed: kept only if they are a name.
            person = PersonName.problem(with: request.peer.name) == nil ? request.peer.name : "visitor"
        }

        var command: AllowedCommand?
        if let text = request.command, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let words = request.commandWords else {
                return .refuse("the command could not be read (a quote is left open).")
            }
            switch AllowedCommand.parse(words) {
            case let .success(allowed): command = allowed
            case let .failure(refusal): return .refuse(refusal.sentence)
            }
        } else if request.pseudoTerminal == nil {
            return .refuse("this server needs a terminal: connect with `ssh -t`.")
        }
        if let command, command.isAgentDoor, case .demo(let sets) = data {
            return agentDoor(code: command.agentCode, person: person, request: request, sets: sets)
        }
        if let command, command.agentCode != nil {
            return .refuse("on a team server mcp takes no code: run `mcp` alone and the agent files as your key's person.")
        }
        if let command, command.isPresent || command.watchCode != nil {
            guard let presenting else { return .refuse("this server does not offer present or watch.") }
            guard request.pseudoTerminal != nil else {
                return .refuse("\(command.subcommand[0]) needs a terminal: connect with `ssh -t`.")
            }
            if let code = command.watchCode { return watch(code: code, person: person, request: request, presenting: presenting) }
            if command.presentWatchers != nil, isDemo {
                return .refuse("present --watchers needs team mode: demo names are whatever a visitor typed; anyone with the code may watch.")
            }
        }

        let database: URL
        let folder: PersonFolder
        var release: (@Sendable () -> Void)?
        var storeEnvironment: [String: String] = [:]
        switch data {
        case let .team(url, given):
            database = url
            storeEnvironment = given
            folder = PersonFolder(person: person, beside: url)
        case let .demo(sets):
            do {
                (database, folder) = try sets.acquire(
                    connectionID: request.peer.connectionID, person: person, now: now, source: request.peer.source)
            } catch {
                logger.error("demo data set could not be made", metadata: ["error": "\(error)"])
                return .refuse("the demo could not be prepared; try again.")
            }
            let connection = request.peer.connectionID
            release = { sets.release(connectionID: connection) }
        }

        do {
            try folder.prepare()
        } catch {
            logger.error("cannot make the person's folder", metadata: ["folder": "\(folder.path)", "error": "\(error)"])
            release?()
            return .refuse("the server cannot prepare your folder; tell its administrator.")
        }

        // Whom an upload quota and a recording budget count: the address in demo mode, else the person.
        let visitor = isDemo ? "address " + request.peer.source : "person " + person
        var uploader: String?
        var quotaArguments: [String] = []
        if let command, command.subcommand == ["photos", "add"] {
            switch quotaLeft(for: request, in: folder) {
            case .failure(let full):
                release?()
                return .refuse(full.sentence)
            case .success(let left):
                quotaArguments = ["--upload-quota-count", String(left.count), "--upload-quota-bytes", String(left.bytes)]
            }
            guard uploading.withLock({ $0.insert(visitor).inserted }) else {
                release?()
                return .refuse("another photos add of yours is still running; send one photo at a time.")
            }
            uploader = visitor
        }

        let arguments: [String]
        let store = storeEnvironment.isEmpty ? ["--db", database.path] : []
        let common = store + ["--as", person, "--log-level", "\(logLevel)"]
        if let command, command.isPresent {
            // The app, shared: no resume (a presentation that drops has ended for its watchers).
            arguments = common + ["--session-folder", folder.path, "--resume-within", "0", "--present"]
        } else if let command {
            let folderArguments = command.isPhotos ? ["--session-folder", folder.path] : []
            arguments = command.subcommand + common + folderArguments + quotaArguments + command.arguments
        } else {
            arguments = common + ["--session-folder", folder.path, "--resume-within", String(isDemo ? 0 : resumeWindowSeconds)]
        }
        // TERM when there is a terminal, and the locale variables.
        var session = sessionCommand(arguments, environment: request.terminalEnvironment, folder: folder.path)
        session.environment.merge(storeEnvironment) { _, store in store }
        session.environment.merge(logEnvironment) { _, log in log }
        // A demo session shows its data set's agent code, so the visitor can let an agent in.
        if command == nil || command?.isPresent == true, case .demo(let sets) = data,
            let code = sets.agentCode(connectionID: request.peer.connectionID)
        {
            session.environment[DemoDataSets.agentCodeKey] = code.text
        }
        var presentation: WatchCode?
        if let command, command.isPresent, let presenting {
            session.environment.merge(presenting.environment) { _, given in given }
            let code = presenting.openPresentation(presenter: person, watchers: command.presentWatchers)
            session.environment[PresentDirectory.codeKey] = code.text
            presentation = code
        }
        if release != nil || presentation != nil || uploader != nil {
            let (releasing, opened, visitor) = (release, presentation, uploader)
            session.onExit = { [self] _ in
                releasing?()
                if let opened { presenting?.closePresentation(opened) }
                if let visitor { _ = uploading.withLock { $0.remove(visitor) } }
            }
        }
        let limit = memoryLimit
        session.sentenceAtEnd = { end in Self.sentence(for: end, memoryLimit: limit) }
        if let recordings, ServeRecordings.records(request, demo: isDemo) {
            session.outputTap = recordings.tap(for: request, person: person, visitor: visitor, now: now)
        }
        return .run(session)
    }
}

/// Sizes such as `512M`, `1G`, `800K` or a count of bytes (binary units: M is MiB), and their text.
public enum MemorySize {
    public static func bytes(_ text: String) -> UInt64? {
        let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        if digits.hasSuffix("IB") { digits.removeLast(2) } else if digits.hasSuffix("B") { digits.removeLast() }
        var unit: UInt64 = 1
        if let last = digits.last, let factor = units[last] {
            unit = factor
            digits.removeLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = UInt64(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : product
    }

    public static func text(_ bytes: UInt64) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        return "\(bytes >> 10) KiB"
    }
}
