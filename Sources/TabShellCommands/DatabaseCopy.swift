import ArgumentParser
import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import Storage

/// `tabshell db copy --from PATH --to URL`
public struct DatabaseCopy: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy an SQLite store (settings, requests, records, photos, catalog) into an empty PostgreSQL store, all or nothing.",
        discussion: """
            Everything goes in one transaction: the target is read back and its checksum compared with the \
            source's before it is committed, so a failure or a difference leaves the target empty. Record and \
            request ids and uids are kept. The source is not changed. The password comes from the URL, PGPASSWORD or \
            ~/.pgpass and is never printed.
            """
    )

    @Option(help: ArgumentHelp("The SQLite database file to copy.", valueName: "path"), completion: .file())
    public var from: String

    @Option(help: ArgumentHelp("The PostgreSQL store: postgres://user@host[:port]/dbname[?sslmode=…].", valueName: "url"))
    public var to: String

    @Option(name: .customLong("log-level"), help: ArgumentHelp("Log detail written to tabshell.log beside the source.", valueName: "level"))
    public var logLevelName: LogLevelName = .info

    public init() {}

    public func validate() throws {
        if PostgresLocation.isPostgresURL(from) {
            throw ValidationError("--from is an SQLite file; copying from PostgreSQL is not supported.")
        }
        if !PostgresLocation.isPostgresURL(to) {
            throw ValidationError("--to must be a postgres:// or postgresql:// URL.")
        }
    }

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let path = (from as NSString).expandingTildeInPath
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        let logger = CommandLog.logger(beside: url, level: logLevelName.level)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Failure("There is no SQLite store at \(url.path) to copy (--from).")
        }
        let source = try openExisting(url, logger: logger)
        let target = try PostgresStore.open(
            PostgresLocation(url: to, environment: context.environment), folder: AppDatabase.defaultDirectory(environment: context.environment),
            listen: false, answerTimeout: nil, logger: logger)
        defer { target.close() }
        let started = ContinuousClock.now
        let report = try failing("db copy", logger: logger) { () throws(StorageError) in
            try StoreCopy.copy(from: source, to: target) { progress in
                if context.errorIsTerminal { context.warn("… \(progress.records) records") }
            }
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        logger.info(
            "db copy", metadata: ["to": "\(target.displayName)", "records": "\(report.records)", "seconds": "\(String(format: "%.1f", seconds))"])
        try finishing(
            context,
            writing: """
                Copied \(source.displayName) to \(target.displayName) in \(String(format: "%.1f", seconds)) s:
                  requests  \(report.requests)
                  records   \(report.records)
                  photos    \(report.photos) (\(report.photoContents) distinct, \(byteCount(report.photoBytes)))
                  products  \(report.products)
                checksum of the source  sha256:\(report.sourceChecksum)
                checksum of the target  sha256:\(report.targetChecksum) (read back before commit: they match)

                """)
    }
}
