import ArgumentParser
import Foundation
import Logging
import Storage

/// Options every command that touches the database shares.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"), help: ArgumentHelp("Database file (default: $XDG_DATA_HOME/tabshell/tabshell.sqlite).", valueName: "path"),
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

    /// The database URL: `--db`, else the per-user default.
    func databaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path {
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
    static func logFile(beside database: URL) -> URL {
        database.deletingLastPathComponent().appendingPathComponent("tabshell.log")
    }

    /// A logger at `--log-level` writing to the log file beside `database`.
    func logger(beside database: URL) -> Logger {
        let file = Self.logFile(beside: database)
        let level = logLevel
        var logger = Logger(label: "tabshell") { _ in FileLogHandler(url: file, level: level) }
        logger.logLevel = level
        return logger
    }
}

/// Opens the database at `url` for a command that only reads; a missing file is an error
/// (reading must not create an empty database as a side effect).
func openExisting(_ url: URL, logger: Logger) throws -> AppDatabase {
    guard FileManager.default.fileExists(atPath: url.path) else {
        throw Failure("There is no database at \(url.path) yet: start tabshell once, or pass --db.")
    }
    do {
        return try AppDatabase.open(at: url)
    } catch {
        logger.error("open failed: \(error.message)")
        throw Failure(error.message)
    }
}
