import ArgumentParser
import Foundation
import Logging
import Storage
import TabShell
import TabShellCommands

extension HistoryImport.Format: ExpressibleByArgument {}

/// `tabshell history import FILE|- [--format json|jsonl|csv]`
struct HistoryImportCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the records a history export wrote (JSON, JSON lines or CSV), all or nothing.",
        discussion: """
            Reads what tabshell history export writes, in any of its formats (told from the content, or by \
            --format), with every kind of record: each keeps its time, who captured it, its code, note, product, \
            batch lines and the request it answers (added anew, as it was); only ids are new. Photos are copied \
            from the paths the export names, and must be there as the export describes them. Every record is \
            checked first; if any is wrong, each problem is printed with its index and nothing is imported. \
            Otherwise all are added in one transaction. See docs/export.md.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("json, jsonl or csv; told from the content when left out.", valueName: "format"))
    var format: HistoryImport.Format?

    @Argument(help: ArgumentHelp("The exported file, or - for standard input.", valueName: "file"), completion: .file())
    var file: String

    /// What an import says when it is done: "Imported 1 record (and the request it answers).",
    /// "Imported 3 records (and the 2 requests they answer).".
    static func imported(records: Int, requests: Int) -> String {
        let requestsText = requests == 1 ? "request" : Count.noun(requests, "request")
        let answer = records == 1 ? "it answers" : "they answer"
        let answered = requests == 0 ? "" : " (and the \(requestsText) \(answer))"
        return "Imported \(Count.noun(records, "record"))\(answered)."
    }

    func execute(_ context: CommandContext) throws {
        umask(0o077)
        let url = database.databaseURL(environment: context.environment)
        let logger = database.logger(beside: url)
        let source = file == "-" ? "standard input" : Sanitizer(unicode: context.localeIsUTF8).line(file)
        let data = try readImportFile(file, source: source, maximumBytes: HistoryImport.maximumBytes, context: context)

        var history: ImportedHistory
        switch HistoryImport.parse(data, format: format, now: context.now()) {
        case let .problems(problems):
            throw refusal(problems, source: source, context: context, logger: logger)
        case let .history(parsed):
            history = parsed
        }
        let db = try database.openStore(environment: context.environment, logger: logger)
        let photoProblems = HistoryImport.stagePhotos(of: &history, store: db)
        guard photoProblems.isEmpty else {
            throw refusal(photoProblems, source: source, context: context, logger: logger)
        }
        do {
            let ids = try db.importHistory(history)
            logger.info(
                "history import", metadata: ["records": "\(ids.count)", "requests": "\(history.requests.count)", "file": "\(source)"])
            try finishing {
                try context.output.write(Self.imported(records: ids.count, requests: history.requests.count) + "\n")
                try context.output.finish()
            }
        } catch let error as StorageError {
            history.discardStaging()
            logger.error("history import failed: \(error.message)")
            throw Failure(error.message + " Nothing was imported.")
        }
    }

    /// Prints the first problems (as `inbox import` does: enough to fix a file, with the count
    /// of the rest) and returns the failure to throw.
    private func refusal(_ problems: [ImportProblem], source: String, context: CommandContext, logger: Logger) -> Failure {
        let shown = InboxImportCommand.problemsShown
        for problem in problems.prefix(shown) { context.warn("\(source): \(problem)") }
        if problems.count > shown {
            context.warn("\(source): … and \(problems.count - shown) more.")
        }
        logger.warning("history import refused", metadata: ["problems": "\(problems.count)", "file": "\(source)"])
        return Failure("\(Count.noun(problems.count, "problem")) in \(source); nothing was imported.")
    }
}

/// The bytes of an import's FILE, or of standard input for `-`, refused past `maximumBytes`
/// (`inbox import`, `history import`); `source` names it in sentences.
func readImportFile(_ file: String, source: String, maximumBytes: Int, context: CommandContext) throws -> Data {
    do {
        if file == "-" { return try context.readInput() }
        let path = (file as NSString).expandingTildeInPath
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes[.size] as? Int, size > maximumBytes {
            throw Failure("\(source) is larger than \(maximumBytes >> 20) MiB; nothing was imported.")
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let failure as Failure {
        throw failure
    } catch {
        throw Failure("Cannot read \(source): \((error as NSError).localizedDescription)")
    }
}
