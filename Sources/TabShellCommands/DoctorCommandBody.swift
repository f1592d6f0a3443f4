import ArgumentParser
import Foundation
import SQLiteStorage

/// `tabshell doctor [--full] [--scanner]`: checks the terminal, the data folder and the database
/// (or a barcode scanner) and says how to fix each problem; exit status 1 when there is one.
/// Changes nothing: the database is opened read-only, never migrated or swept.
public struct DoctorChecks: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the terminal, the data folder and the database; print a fix for each problem.",
        discussion: """
            Read-only: nothing is created, migrated, swept or repaired. Exits 0 when everything is fine and 1 \
            when a problem was found. Notes (marked "note") are worth knowing but not problems.
            """
    )

    @OptionGroup public var database: DatabaseOptions

    @Flag(
        help:
            "Run SQLite's full integrity_check (reads every page; slow on a big database) instead of quick_check; on PostgreSQL, check every photo's hash, not only the newest 100."
    )
    public var full = false

    @Flag(help: "Check a barcode scanner instead: scan a test code and see its keyboard layout, suffix, AIM prefix, GS1 separator and speed.")
    public var scanner = false

    public init() {}

    public func execute(_ context: CommandContext) throws {
        let url = database.databaseURL(environment: context.environment)
        if scanner {
            // Read-only like the rest of doctor: the scan is read as it arrives, with no layout
            // undone, so a mismatch shows.
            let status = try ScannerCheck.run(context, settingsLayout: nil)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var report = DoctorReport()
        let doctor = Doctor(full: full)
        doctor.checkTerminal(context, into: &report)
        if let text = database.postgresURL(environment: context.environment) {
            doctor.checkServer(text, context, into: &report)
        } else {
            let examination = AppDatabase.examine(at: url, fullIntegrityCheck: full)
            doctor.checkFiles(examination, into: &report)
            doctor.checkDatabase(examination, into: &report)
            // Logging appends to an existing data folder only; it never creates one.
            if FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path) {
                database.logger(beside: url).info("doctor", metadata: ["problems": "\(report.problemCount)"])
            }
        }
        try finishing(
            context, writing: report.render(unicode: context.localeIsUTF8, width: context.outputIsTerminal ? context.terminalSize()?.columns : nil))
        if report.problemCount > 0 { throw ExitCode(1) }
    }
}
