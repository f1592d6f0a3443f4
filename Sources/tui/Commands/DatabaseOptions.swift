import ArgumentParser
import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import Storage
import TabShellCommands

/// Options every command that touches the database shares.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "Database file, or a PostgreSQL URL postgres://user@host/dbname (default: $TABSHELL_DATABASE_URL, else $XDG_DATA_HOME/tabshell/tabshell.sqlite).",
            valueName: "path|url"),
        completion: .file())
    var path: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("Log detail written to tabshell.log beside the database.", valueName: "level"))
    var logLevelName: LogLevelName = .info

    /// `--log-level` as swift-log's level.
    var logLevel: Logger.Level { logLevelName.level }

    func validate() throws {
        if let path, path.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--db needs a file path.")
        }
    }

    /// The environment variable naming the store when `--db` does not.
    static let environmentVariable = "TABSHELL_DATABASE_URL"

    /// The store's location as given: `--db`, else `TABSHELL_DATABASE_URL`; nil for the default.
    func given(_ environment: [String: String]) -> String? {
        if let path { return path }
        if let value = environment[Self.environmentVariable], !value.trimmingCharacters(in: .whitespaces).isEmpty { return value }
        return nil
    }

    /// The PostgreSQL URL the store is at, when it is on a server.
    func postgresURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        given(environment).flatMap { PostgresLocation.isPostgresURL($0) ? $0 : nil }
    }

    /// The database file (for a store on a server: the default file's place, beside which this
    /// host keeps the log, staging and the photo cache): `--db`, else `TABSHELL_DATABASE_URL`,
    /// else the per-user default.
    func databaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = given(environment), !PostgresLocation.isPostgresURL(path) {
            let expanded = (path as NSString).expandingTildeInPath
            return URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        }
        return AppDatabase.defaultDatabaseURL(environment: environment)
    }
}

/// `--log-level`'s values: swift-log's level names, parsed here rather than by a retroactive
/// conformance of swift-log's type to ArgumentParser's protocol.
enum LogLevelName: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}

extension DatabaseOptions {
    /// `tabshell.log` beside the database: where the app, every command and the crash guard write.
    static func logFile(beside database: URL) -> URL { CommandLog.file(beside: database) }

    /// A logger at `--log-level` writing to the log file beside `database`.
    func logger(beside database: URL) -> Logger { CommandLog.logger(beside: database, level: logLevel) }

    /// Opens the store these options name (`StoreOpening.open`): the PostgreSQL server `--db` or
    /// `TABSHELL_DATABASE_URL` names, else the SQLite file. Every failure is one sentence.
    func openStore(
        environment: [String: String], logger: Logger, listen: Bool = false, mustExist: Bool = false, longStatements: Bool = false
    ) throws -> any RecordStore {
        try StoreOpening.open(
            postgresURL: postgresURL(environment: environment), databaseURL: databaseURL(environment: environment), environment: environment,
            logger: logger, listen: listen, mustExist: mustExist, longStatements: longStatements)
    }
}
