import ArgumentParser
import CaptureMode
import Foundation
import Logging
import Storage
import TabShell
import TabShellCommands

/// `tabshell inbox …`
struct InboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Work with Inbox requests from the shell.",
        subcommands: [InboxAddCommand.self, InboxListCommand.self, InboxImportCommand.self]
    )
}

/// `tabshell inbox add --title T [--body B] [--kind K]`
struct InboxAddCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a pending request to the Inbox; prints its id."
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var identity: IdentityOptions

    @Option(help: "What is asked for, shown in the Inbox list.")
    var title: String

    @Option(help: "More detail, shown under the list.")
    var body: String = ""

    @Option(help: ArgumentHelp("What to capture: \(CaptureKind.requestable.map(\.rawValue).joined(separator: "|")).", valueName: "kind"))
    var kind: CaptureKind = .barcode

    @Option(help: ArgumentHelp("Who asks: a person or an agent, shown with the request; the answer is theirs.", valueName: "name"))
    var from: String?

    func validate() throws {
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError("--title must not be empty.")
        }
        if let from, case let .failure(problem) = StorageLimits.requesterName(from) {
            throw ValidationError("--from: " + problem.message)
        }
    }

    func execute(_ context: CommandContext) throws {
        umask(0o077)
        let url = database.databaseURL(environment: context.environment)
        let logger = database.logger(beside: url)
        let db = try database.openStore(environment: context.environment, logger: logger)
        do {
            let id = try db.addRequest(
                title: title, body: body, kind: kind, now: context.now(), createdBy: identity.person, requester: from)
            logger.info("inbox add", metadata: ["id": "\(id)", "kind": "\(kind.rawValue)", "by": "\(identity.person)"])
            // A person at a terminal reads what happened; a script reads the id alone.
            let line =
                context.outputIsTerminal
                ? "Added request #\(id) (\(kind.title.lowercased())): \(Sanitizer(unicode: true).line(title)).\n"
                : "\(id)\n"
            try finishing {
                try context.output.write(line)
                try context.output.finish()
            }
        } catch let error as StorageError {
            logger.error("inbox add failed: \(error.message)")
            throw Failure(error.message)
        }
    }
}

/// `tabshell inbox list [--json] [--limit N]`
struct InboxListCommand: ContextCommand, ListedItems {
    static let noun = "requests"
    static let defaultLimit = 0

    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List Inbox requests: pending first, then done, newest first.",
        discussion: "Without --json, prints a table for people (times in UTC). With --json, prints one object that tabshell inbox import reads back."
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var list: ListOptions<Self>

    func execute(_ context: CommandContext) throws {
        let url = database.databaseURL(environment: context.environment)
        let logger = database.logger(beside: url)
        let db = try database.openStore(environment: context.environment, logger: logger, mustExist: true)
        let requests: [InboxRequest]
        do {
            requests = try db.requestListing(limit: list.count)
        } catch {
            logger.error("inbox list failed: \(error.message)")
            throw Failure(error.message)
        }
        logger.info("inbox list", metadata: ["count": "\(requests.count)", "json": "\(list.json)"])
        var listing = Listing(
            json: list.json, key: "requests", empty: "No requests. Add one with: tabshell inbox add --title \"Scan the pallet\"",
            columns: [
                .init(title: "ID", alignRight: true), .init(title: "STATUS"), .init(title: "KIND"),
                .init(title: "CREATED (UTC)"), .init(title: "TITLE", maximumWidth: 60),
            ],
            context: context)
        try finishing {
            for request in requests {
                try listing.add(
                    json: JSONText.request(request),
                    row: [String(request.id), request.status.rawValue, request.kind.rawValue, tableTime(request.createdAt), request.title])
            }
            // Who asked, once any request names someone.
            if requests.contains(where: { $0.requester != nil }) {
                listing.insertColumn(.init(title: "FROM", maximumWidth: 20), at: 4, cells: requests.map { $0.requester ?? "-" })
            }
            try listing.finish()
        }
    }
}

/// `tabshell inbox import FILE.json|-`
struct InboxImportCommand: ContextCommand {
    /// How many problems of a refused file are listed (all are counted).
    static let problemsShown = 20

    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the requests in a JSON file to the Inbox, all or nothing.",
        discussion: """
            The file is a JSON array of {"title", "body", "kind"} objects, or the object tabshell inbox list --json \
            prints. Every entry is checked first; if any is wrong, each problem is printed with its index and \
            nothing is imported. Otherwise all are added as pending requests in one transaction. See docs/export.md.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var identity: IdentityOptions

    @Argument(help: ArgumentHelp("The JSON file, or - for standard input.", valueName: "file"), completion: .file(extensions: ["json"]))
    var file: String

    func execute(_ context: CommandContext) throws {
        umask(0o077)
        let url = database.databaseURL(environment: context.environment)
        let logger = database.logger(beside: url)
        let source = file == "-" ? "standard input" : file
        let data = try readImportFile(file, source: source, maximumBytes: RequestImport.maximumBytes, context: context)

        switch RequestImport.parse(data) {
        case let .problems(problems):
            // The first ones, which are enough to fix a file (a wrong key is usually wrong in
            // every entry); the count says how many there are.
            for problem in problems.prefix(Self.problemsShown) { context.warn("\(source): \(problem)") }
            if problems.count > Self.problemsShown {
                context.warn("\(source): … and \(problems.count - Self.problemsShown) more.")
            }
            logger.warning("inbox import refused", metadata: ["problems": "\(problems.count)", "file": "\(source)"])
            throw Failure("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(source); nothing was imported.")
        case let .requests(requests):
            let db = try database.openStore(environment: context.environment, logger: logger)
            do {
                let ids = try db.importRequests(requests, now: context.now(), createdBy: identity.person)
                logger.info("inbox import", metadata: ["count": "\(ids.count)", "file": "\(source)"])
                try finishing {
                    try context.output.write("Imported \(ids.count) request\(ids.count == 1 ? "" : "s").\n")
                    try context.output.finish()
                }
            } catch let error as StorageError {
                logger.error("inbox import failed: \(error.message)")
                throw Failure(error.message + " Nothing was imported.")
            }
        }
    }
}
