import ArgumentParser
import CaptureMode
import Foundation
import Logging
import Storage
import TabShell
import TabShellCommands

/// `tabshell history …`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, export or import History records.",
        subcommands: [HistoryListCommand.self, HistoryExportCommand.self, HistoryImportCommand.self]
    )
}

extension ExportFormat: ExpressibleByArgument {}

/// `tabshell history export --format json|csv|jsonl [--output FILE] [--since ID]`, or
/// `tabshell history export --follow [--since ID]`
struct HistoryExportCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every History record, with its request and photos, as JSON, CSV or JSON lines.",
        discussion: """
            Records come in the order they were committed, from one consistent snapshot, streamed: memory \
            stays flat however many there are. Photos are named by the absolute path of their stored file. \
            Progress goes to standard error when it is a terminal. With --output the file appears only once \
            it is complete (written beside it, then renamed). --since ID starts after record ID. \
            With --follow, every record committed from now on (by any session or process) is printed as a \
            JSON line as it commits, until interrupted (exit 0); with --since too, the records after ID come \
            first, so a consumer that restarts from the last id it saw misses nothing and sees nothing twice. \
            The formats are described in docs/export.md.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("json, csv or jsonl (JSON lines).", valueName: "format"))
    var format: ExportFormat?

    @Flag(help: "Keep running: print each record committed from now on as a JSON line, until interrupted.")
    var follow = false

    @Option(help: ArgumentHelp("Only records after this record id (the last one a consumer saw).", valueName: "id"))
    var since: Int64?

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"), completion: .file())
    var output: String?

    func validate() throws {
        if let output, output.isEmpty || output.hasSuffix("/") {
            throw ValidationError("--output needs a file path.")
        }
        if let since, since < 0 || since == .max { throw ValidationError("--since needs a record id (0 or more).") }
        if follow {
            if let format, format != .jsonl {
                throw ValidationError("--follow writes JSON lines: leave out --format, or give --format jsonl.")
            }
            if output != nil { throw ValidationError("--follow writes to standard output; --output is for a finished export.") }
        } else if format == nil {
            throw ValidationError("Missing --format: json, csv or jsonl (or --follow).")
        }
    }

    func execute(_ context: CommandContext) throws {
        umask(0o077)
        let url = database.databaseURL(environment: context.environment)
        let logger = database.logger(beside: url)
        let db = try database.openStore(environment: context.environment, logger: logger, listen: follow, mustExist: true, longStatements: true)
        if follow {
            return try HistoryFollower(database: db, output: context.output, logger: logger).run(after: since)
        }
        let format = format ?? .jsonl
        let ids = (since ?? 0) + 1...Int64.max

        let sink: any TextOutput
        if let output {
            do {
                sink = try OutputSink(atomicFileAt: (output as NSString).expandingTildeInPath, mode: 0o600)
            } catch {
                throw Failure(error.sentence)
            }
        } else {
            sink = context.output
        }
        // Progress only where a person watches it, and not over records printed to the same screen.
        let showsProgress = context.errorIsTerminal && (output != nil || !context.outputIsTerminal)
        let progress = showsProgress ? ProgressLine(errors: context.errors) : nil
        let started = ContinuousClock.now
        var written = 0
        logger.info("history export started", metadata: ["format": "\(format.rawValue)", "output": "\(output ?? "-")"])
        do {
            try finishing {
                do {
                    var total = 0
                    try db.exportHistory(
                        ids: ids,
                        start: { count in
                            total = count
                            try sink.write(format.header(recordCount: count, exportedAt: context.now()))
                        }
                    ) { record in
                        let text = format.record(record, index: written)
                        // Every format escapes what a terminal would act on: nothing to scrub.
                        try sink.write(text)
                        written += 1
                        progress?.update(done: written, total: total)
                    }
                    try sink.write(format.footer(recordCount: written))
                    try sink.finish()
                } catch let error as StorageError {
                    throw Failure(error.message)
                }
            }
        } catch {
            progress?.clear()
            logger.error("history export stopped", metadata: ["written": "\(written)", "error": "\(error)"])
            throw error
        }
        let elapsed = started.duration(to: .now).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        progress?.clear()
        if showsProgress {
            context.warn("Exported \(written) record\(written == 1 ? "" : "s")\(output.map { " to \($0)" } ?? "").")
        }
        logger.info("history export finished", metadata: ["records": "\(written)", "seconds": "\(String(format: "%.2f", seconds))"])
    }
}

/// `tabshell history list [--json] [--limit N]`
struct HistoryListCommand: ContextCommand, ListedItems {
    static let noun = "records"
    static let defaultLimit = 50

    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List History records, newest first.",
        discussion:
            "Without --json, prints a table for people (times in UTC; the table is laid out once every row is read, so prefer --json for very long lists). For every field of every record, use tabshell history export."
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var list: ListOptions<Self>

    func execute(_ context: CommandContext) throws {
        let url = database.databaseURL(environment: context.environment)
        let logger = database.logger(beside: url)
        let db = try database.openStore(environment: context.environment, logger: logger, mustExist: true)
        var listing = Listing(
            json: list.json, key: "records", empty: "No records. Press 2 in tabshell to capture one, or try tabshell --demo.",
            columns: [
                .init(title: "ID", alignRight: true), .init(title: "KIND"), .init(title: "CREATED (UTC)"),
                .init(title: "CODE OR NOTE", maximumWidth: 40), .init(title: "PHOTOS", alignRight: true),
                .init(title: "REQUEST", maximumWidth: 40),
            ],
            context: context)
        // Who captured each record, shown as a column once more than one person is listed.
        var capturers: [String?] = []
        logger.info("history list", metadata: ["json": "\(list.json)", "limit": "\(list.count ?? 0)"])
        try finishing {
            do {
                try db.historyListing(limit: list.count) { record in
                    try listing.add(
                        json: JSONText.listedRecord(record),
                        row: [
                            String(record.id), record.kind.rawValue, tableTime(record.createdAt), summary(record), String(record.photoCount),
                            record.request?.title ?? "",
                        ])
                    capturers.append(record.capturedBy)
                }
            } catch let error as StorageError {
                throw Failure(error.message)
            }
            if Set(capturers.compactMap { $0 }).count > 1 {
                listing.insertColumn(.init(title: "BY", maximumWidth: 20), at: 3, cells: capturers.map { $0 ?? "-" })
            }
            try listing.finish()
        }
    }

    private func summary(_ record: ExportedRecord) -> String {
        if let barcode = record.barcode { return "\(barcode.value) (\(barcode.symbology.title))" }
        if record.kind == .batch {
            return "\(Count.noun(record.lines.count, "code")), \(Count.noun(record.lines.reduce(0) { $0 + $1.quantity }, "scan"))"
        }
        return record.note?.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}
