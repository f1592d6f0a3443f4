import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import Storage

/// The log every command writes: `tabshell.log` beside the database.
public enum CommandLog {
    /// A logger at `level` writing to the log file beside `database`, in the format the
    /// environment asks for (``LogFormat/environmentVariable``: a served session follows its server).
    ///
    /// A database path that names a device, a pipe or a folder (refused when opened) gets no log:
    /// `--db /dev/null` must not make `/dev/tabshell.log`.
    public static func logger(beside database: URL, level: Logger.Level) -> Logger {
        var info = stat()
        if stat(database.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            return Logger(label: "tabshell") { _ in SwiftLogNoOpLogHandler() }
        }
        let file = DatabaseOptions.logFile(beside: database)
        let format = LogFormat()
        var logger = Logger(label: "tabshell") { _ in FileLogHandler(url: file, level: level, format: format) }
        logger.logLevel = level
        return logger
    }
}

/// `work`'s failure, logged as "`action` failed: …" and said as its sentence (`more` after it).
func failing<T>(_ action: String, logger: Logger, saying more: String = "", _ work: () throws(StorageError) -> T) throws -> T {
    do {
        return try work()
    } catch {
        logger.error("\(action) failed: \(error.message)")
        throw Failure(error.message + more)
    }
}

/// Opening the store a command names.
public enum StoreOpening {
    /// The PostgreSQL store `url` names, not yet connected: its name, and how to open it (the
    /// app opens it off its loop, so a server slow to answer never holds the first frame). A URL
    /// that cannot be read is one sentence at once.
    public static func postgres(
        url text: String, environment: [String: String], logger: Logger, listen: Bool = false, longStatements: Bool = false
    ) throws -> (name: String, open: @Sendable () throws(StorageError) -> any RecordStore) {
        let location = try failing("open", logger: logger) { () throws(StorageError) in try PostgresLocation(url: text, environment: environment) }
        // This host's folder for the store (the log, staging, the photo cache).
        let folder = AppDatabase.defaultDirectory(environment: environment)
        let answerTimeout = longStatements ? nil : PostgresStore.answerTimeout
        return (
            location.address,
            { () throws(StorageError) in
                try PostgresStore.open(location, folder: folder, listen: listen, answerTimeout: answerTimeout, logger: logger)
            }
        )
    }
}

/// Opens the database at `url` for a command that only reads; a missing file is an error
/// (reading must not create an empty database as a side effect).
public func openExisting(_ url: URL, logger: Logger) throws -> AppDatabase {
    guard FileManager.default.fileExists(atPath: url.path) else {
        throw Failure("There is no database at \(url.path) yet: start tabshell once, or pass --db.")
    }
    return try failing("open", logger: logger) { () throws(StorageError) in try AppDatabase.open(at: url) }
}
