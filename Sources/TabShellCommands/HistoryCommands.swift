import ArgumentParser
import CaptureMode
import Domain
import Foundation
import Logging
import Storage
import TabShell

/// `tabshell history export --format json|csv|jsonl [--output FILE] [--since ID]`, or
/// `tabshell history export --follow [--since ID]`
public struct HistoryExport: CommandBody {
    public static let configuration = CommandConfiguration(
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

    @OptionGroup public var database: DatabaseOptions

    @Option(help: ArgumentHelp("json, csv or jsonl (JSON lines).", valueName: "format"))
    public var format: ExportFormat?

    @Flag(help: "Keep running: print each record committed from now on as a JSON line, until interrupted.")
    public var follow = false

    @Option(help: ArgumentHelp("Only records after this record id (the last one a consumer saw).", valueName: "id"))
    public var since: Int64?

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"), completion: .file())
    public var output: String?

    public init() {}

    public func validate() throws {
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

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let (logger, db) = try database.open(context, listen: follow, mustExist: true, longStatements: true)
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
        var progress = showsProgress ? ProgressLine(errors: context.errors) : nil
        let started = ContinuousClock.now
        var written = 0
        logger.info("history export started", metadata: ["format": "\(format.rawValue)", "output": "\(output ?? "-")"])
        do {
            try finishing {
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
            }
        } catch {
            progress?.clear()
            logger.error("history export stopped", metadata: ["written": "\(written)", "error": "\(error)"])
            throw error
        }
        let seconds = started.duration(to: .now) / .seconds(1)
        progress?.clear()
        if showsProgress {
            context.warn("Exported \(written) record\(written == 1 ? "" : "s")\(output.map { " to \($0)" } ?? "").")
        }
        logger.info("history export finished", metadata: ["records": "\(written)", "seconds": "\(String(format: "%.2f", seconds))"])
    }
}

/// `tabshell history list [--json] [--limit N]`
public struct HistoryList: CommandBody, ListedItems {
    public static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List History records, newest first.",
        discussion:
            "Without --json, prints a table for people (times in UTC; the table is laid out once every row is read, so prefer --json for very long lists). For every field of every record, use tabshell history export."
    )

    public static let noun = "records"
    public static let defaultLimit = 50

    @OptionGroup public var database: DatabaseOptions
    @OptionGroup public var list: ListOptions<Self>

    public init() {}

    public func execute(_ context: CommandContext) throws {
        let (logger, db) = try database.open(context, mustExist: true)
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
            try db.historyListing(limit: list.count) { record in
                try listing.add(
                    json: JSONText.listedRecord(record),
                    row: [
                        String(record.id), record.kind.rawValue, tableTime(record.createdAt), summary(record), String(record.photoCount),
                        record.request?.title ?? "",
                    ])
                capturers.append(record.capturedBy)
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

/// `tabshell history import FILE|- [--format json|jsonl|csv]`
public struct HistoryFileImport: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the records a history export wrote (JSON, JSON lines or CSV), all or nothing.",
        discussion: """
            Reads what tabshell history export writes, in any of its formats (told from the content, or by \
            --format), with every kind of record: each keeps its time, who captured it, its code, note, product, \
            batch lines, its uid and the request it answers (added as it was, once); only ids are new. A record \
            or request the database holds already (the same uid, or for a file without uids the same content) \
            is skipped, so importing a file twice adds nothing; --dry-run says what would be added and skipped. \
            Photos are copied from the paths the export names, and must be there as the export describes them. \
            Every record is checked first; if any is wrong, each problem is printed with its place and nothing \
            is imported. Otherwise all are added in one transaction. A file holds at most 250,000 records of at \
            most 1 MiB each, in at most 64 MiB. See docs/export.md.
            """
    )

    @OptionGroup public var database: DatabaseOptions

    @Option(help: ArgumentHelp("json, jsonl or csv; told from the content when left out.", valueName: "format"))
    public var format: HistoryImport.Format?

    @Flag(help: "Say what the import would add and skip; write nothing.")
    public var dryRun = false

    @Argument(help: ArgumentHelp("The exported file, or - for standard input.", valueName: "file"), completion: .file())
    public var file: String

    public init() {}

    /// What an import says when it is done: "Imported 1 record (and the request it answers).",
    /// "Imported 3 records (and the 2 requests they answer); skipped 4 already present.".
    public static func imported(records: Int, requests: Int, skipped: Int = 0) -> String {
        let skip = skipped == 0 ? "" : "; skipped \(skipped) already present"
        return "Imported \(Count.noun(records, "record"))\(answered(records: records, requests: requests))\(skip)."
    }

    /// What `--dry-run` says: "Would import 2 records (and the request they answer) and skip 7
    /// already present; nothing was written.".
    public static func wouldImport(records: Int, requests: Int, skipped: Int) -> String {
        let skip = skipped == 0 ? "" : " and skip \(skipped) already present"
        return "Would import \(Count.noun(records, "record"))\(answered(records: records, requests: requests))\(skip); nothing was written."
    }

    private static func answered(records: Int, requests: Int) -> String {
        let requestsText = requests == 1 ? "request" : Count.noun(requests, "request")
        let answer = records == 1 ? "it answers" : "they answer"
        return requests == 0 ? "" : " (and the \(requestsText) \(answer))"
    }

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let logger = database.logger(context)
        let source = file == "-" ? "standard input" : Sanitizer(unicode: context.localeIsUTF8).line(file)
        // The file's text is let go once it is read: what is imported is kept, not the text too.
        var parsed: ImportedHistory
        switch HistoryImport.parse(
            try readImportFile(file, source: source, maximumBytes: HistoryImport.maximumBytes, context: context), format: format,
            now: context.now())
        {
        case let .problems(problems):
            throw importRefusal(problems, source: source, logName: "history import", context: context, logger: logger)
        case let .history(history):
            parsed = history
        }
        let db = try database.openStore(environment: context.environment, logger: logger)
        // What the store holds already is skipped: its photos are not even copied in.
        let matches = try failing("history import", logger: logger, saying: " Nothing was imported.") { () throws(StorageError) in
            try db.importMatches(parsed)
        }
        if dryRun {
            let adding = parsed.records.count - matches.presentRecords.count
            let sentence = Self.wouldImport(records: adding, requests: matches.newRequests(of: parsed).count, skipped: matches.presentRecords.count)
            logger.info("history import --dry-run", metadata: ["records": "\(adding)", "skipped": "\(matches.presentRecords.count)"])
            try finishing(context, writing: sentence + "\n")
            return
        }
        // One copy of the records, not the file's and the new ones both.
        var history = parsed.removing(present: matches)
        parsed = ImportedHistory()
        let photoProblems = HistoryImport.stagePhotos(of: &history, store: db)
        guard photoProblems.isEmpty else {
            throw importRefusal(photoProblems, source: source, logName: "history import", context: context, logger: logger)
        }
        do {
            let report = try db.importHistory(history)
            let skipped = matches.presentRecords.count + report.skippedRecords
            logger.info(
                "history import",
                metadata: [
                    "records": "\(report.recordIDs.count)", "requests": "\(report.addedRequests)", "skipped": "\(skipped)", "file": "\(source)",
                ])
            try finishing(
                context, writing: Self.imported(records: report.recordIDs.count, requests: report.addedRequests, skipped: skipped) + "\n")
        } catch let error as StorageError {
            history.discardStaging()
            logger.error("history import failed: \(error.message)")
            throw Failure(error.message + " Nothing was imported.")
        }
    }
}
