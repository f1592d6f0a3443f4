import ArgumentParser
import CaptureMode
import Domain
import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import ServePolicy
import Storage

/// A command: its name and help, its arguments (parsed by ArgumentParser) and what it does with
/// them, run against a `CommandContext` (the process's when run, a test's in the command tests).
/// What it throws is the exit status (`Failure`: 1 with its sentence; `ExitCode`: that status,
/// quietly).
public protocol CommandBody: ParsableCommand {
    func execute(_ context: CommandContext) throws
}

extension CommandBody {
    public func run() throws {
        try execute(.process())
    }
}

/// Options every command that touches the database shares.
public struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "Database file, or a PostgreSQL URL postgres://user@host/dbname (default: $TABSHELL_DATABASE_URL, else $XDG_DATA_HOME/tabshell/tabshell.sqlite).",
            valueName: "path|url"),
        completion: .file())
    public var path: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("Log detail written to tabshell.log beside the database.", valueName: "level"))
    public var logLevelName: LogLevelName = .info

    public init() {}

    /// `--log-level` as swift-log's level.
    public var logLevel: Logger.Level { logLevelName.level }

    public func validate() throws {
        if let path, path.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--db needs a file path.")
        }
    }

    /// The environment variable naming the store when `--db` does not.
    public static let environmentVariable = "TABSHELL_DATABASE_URL"

    /// The store's location as given: `--db`, else `TABSHELL_DATABASE_URL`; nil for the default.
    public func given(_ environment: [String: String]) -> String? {
        if let path { return path }
        if let value = environment[Self.environmentVariable], !value.trimmingCharacters(in: .whitespaces).isEmpty { return value }
        return nil
    }

    /// The PostgreSQL URL the store is at, when it is on a server.
    public func postgresURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        given(environment).flatMap { PostgresLocation.isPostgresURL($0) ? $0 : nil }
    }

    /// The database file (for a store on a server: the default file's place, beside which this
    /// host keeps the log, staging and the photo cache): `--db`, else `TABSHELL_DATABASE_URL`,
    /// else the per-user default.
    public func databaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = given(environment), !PostgresLocation.isPostgresURL(path) {
            let expanded = (path as NSString).expandingTildeInPath
            return URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        }
        return AppDatabase.defaultDatabaseURL(environment: environment)
    }

    /// `tabshell.log` beside the database: where the app, every command and the crash guard write.
    public static func logFile(beside database: URL) -> URL {
        database.deletingLastPathComponent().appendingPathComponent("tabshell.log")
    }

    /// A logger at `--log-level` writing to the log file beside `database`.
    public func logger(beside database: URL) -> Logger { CommandLog.logger(beside: database, level: logLevel) }

    /// The logger beside the database these options name, in `context`'s environment.
    public func logger(_ context: CommandContext) -> Logger { logger(beside: databaseURL(environment: context.environment)) }

    /// Opens the store these options name: the PostgreSQL server `--db` or `TABSHELL_DATABASE_URL`
    /// names (its schema brought up to date; with `listen`, other hosts' commits heard), else the
    /// SQLite file (created when missing unless `mustExist`). Every failure is one sentence.
    ///
    /// `longStatements` lifts the 10 s a statement may wait for its answer (generating or
    /// copying data; the app and the everyday commands keep it, so a vanished server is said).
    public func openStore(
        environment: [String: String], logger: Logger, listen: Bool = false, mustExist: Bool = false, longStatements: Bool = false,
        connections: AppDatabase.Connections = .pool
    ) throws -> any RecordStore {
        if let text = postgresURL(environment: environment) {
            let server = try StoreOpening.postgres(url: text, environment: environment, logger: logger, listen: listen, longStatements: longStatements)
            return try failing("open", logger: logger, server.open)
        }
        let url = databaseURL(environment: environment)
        if mustExist { return try openExisting(url, logger: logger) }
        return try failing("open", logger: logger) { () throws(StorageError) in try AppDatabase.open(at: url, connections: connections) }
    }

    /// The log beside the store, and the store, as most commands begin.
    public func open(
        _ context: CommandContext, listen: Bool = false, mustExist: Bool = false, longStatements: Bool = false
    ) throws -> (logger: Logger, store: any RecordStore) {
        let logger = logger(context)
        let store = try openStore(
            environment: context.environment, logger: logger, listen: listen, mustExist: mustExist, longStatements: longStatements)
        return (logger, store)
    }
}

/// `--log-level`'s values: swift-log's level names, parsed here rather than by a retroactive
/// conformance of swift-log's type to ArgumentParser's protocol.
public enum LogLevelName: String, CaseIterable, ExpressibleByArgument, Sendable {
    case trace, debug, info, notice, warning, error, critical

    public var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}

/// `--as NAME`: who is at the keyboard, kept with every record captured and request added.
/// Without it, the Unix user running tabshell. `tabshell serve` passes the person's name (their
/// key's comment); under OpenSSH an authorized_keys line `command="tabshell --as NAME"` does.
public struct IdentityOptions: ParsableArguments {
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Who you are: the name kept with what you capture or add (default: your Unix user name).",
            valueName: "name"))
    public var name: String?

    public init() {}

    public func validate() throws {
        if let name, let problem = PersonName.problem(with: name) {
            throw ValidationError("--as: \(problem)")
        }
    }

    /// The person: `--as`, else the Unix user.
    public var person: String { name ?? PersonName.unixUser() }
}

/// What every `list` command takes: `--json` and `--limit N` (0 for all).
public struct ListOptions<Items: ListedItems>: ParsableArguments {
    @Flag(help: "Print JSON for scripts (see docs/export.md).")
    public var json = false

    @Option(help: ArgumentHelp("Show at most this many \(Items.noun); 0 shows all.", valueName: "n"))
    public var limit = Items.defaultLimit

    public init() {}

    public func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 (all) or more.") }
    }

    /// The number of items to read: nil for all.
    public var count: Int? { limit == 0 ? nil : limit }
}

/// Hidden options `tabshell serve` gives the app it runs for a person: their folder (uploads,
/// the navigation to come back to) and the resume window. Not for people to type.
public struct ServedSessionOptions: ParsableArguments {
    @Option(name: .customLong("session-folder"), help: .hidden)
    public var folder: String?

    @Option(name: .customLong("resume-within"), help: .hidden)
    public var resumeSeconds = 0

    public init() {}

    public func validate() throws {
        if let folder, !folder.hasPrefix("/") {
            throw ValidationError("--session-folder needs an absolute path.")
        }
        if resumeSeconds < 0 { throw ValidationError("--resume-within must be 0 or more seconds.") }
    }

    /// A served session as it starts: the person's folder, and whether this session is theirs
    /// to keep (it holds their session lock) and comes back to a snapshot. Nil when not served.
    public func start(person: String, logger: Logger) -> ServedSession? {
        guard let folder else { return nil }
        return ServedSession.start(folder: folder, resumeSeconds: resumeSeconds, person: person, logger: logger)
    }
}

/// On the command line a kind is one a request may ask for (a batch is started on the spot).
extension CaptureKind: ExpressibleByArgument {
    public static var allValueStrings: [String] { requestable.map(\.rawValue) }

    public init?(argument: String) {
        guard let kind = CaptureKind(rawValue: argument), CaptureKind.requestable.contains(kind) else { return nil }
        self = kind
    }
}

extension ExportFormat: ExpressibleByArgument {}

extension HistoryImport.Format: ExpressibleByArgument {}
