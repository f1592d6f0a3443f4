import ArgumentParser
import CaptureMode
import Domain
import Foundation
import Logging
import Scanning
import Storage
import TabShell

/// `tabshell inbox add --title T [--body B] [--kind K] [--from NAME]`
public struct InboxAdd: CommandBody {
    public static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a pending request to the Inbox; prints its id.")

    @OptionGroup public var database: DatabaseOptions

    @OptionGroup public var identity: IdentityOptions

    @Option(help: "What is asked for, shown in the Inbox list.")
    public var title: String

    @Option(help: "More detail, shown under the list.")
    public var body: String = ""

    @Option(help: ArgumentHelp("What to capture: \(CaptureKind.requestable.map(\.rawValue).joined(separator: "|")).", valueName: "kind"))
    public var kind: CaptureKind = .barcode

    @Option(help: ArgumentHelp("Who asks: a person or an agent, shown with the request; the answer is theirs.", valueName: "name"))
    public var from: String?

    public init() {}

    public func validate() throws {
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ValidationError("--title must not be empty.")
        }
        if let from, case let .failure(problem) = StorageLimits.requesterName(from) {
            throw ValidationError("--from: " + problem.message)
        }
    }

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let (logger, db) = try database.open(context)
        let id = try failing("inbox add", logger: logger) { () throws(StorageError) in
            try db.addRequest(title: title, body: body, kind: kind, now: context.now(), createdBy: identity.person, requester: from)
        }
        logger.info("inbox add", metadata: ["id": "\(id)", "kind": "\(kind.rawValue)", "by": "\(identity.person)"])
        // A person at a terminal reads what happened; a script reads the id alone.
        let line =
            context.outputIsTerminal
            ? "Added request #\(id) (\(kind.title.lowercased())): \(Sanitizer(unicode: true).line(title)).\n"
            : "\(id)\n"
        try finishing(context, writing: line)
    }
}

/// `tabshell inbox list [--json] [--limit N]`
public struct InboxList: CommandBody, ListedItems {
    public static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List Inbox requests: pending first, then done, newest first.",
        discussion: "Without --json, prints a table for people (times in UTC). With --json, prints one object that tabshell inbox import reads back."
    )

    public static let noun = "requests"
    public static let defaultLimit = 0

    @OptionGroup public var database: DatabaseOptions
    @OptionGroup public var list: ListOptions<Self>

    public init() {}

    public func execute(_ context: CommandContext) throws {
        let (logger, db) = try database.open(context, mustExist: true)
        let requests = try failing("inbox list", logger: logger) { () throws(StorageError) in try db.requestListing(limit: list.count) }
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
public struct InboxImport: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the requests in a JSON file to the Inbox, all or nothing.",
        discussion: """
            The file is a JSON array of {"title", "body", "kind"} objects, or the object tabshell inbox list --json \
            prints. Every entry is checked first; if any is wrong, each problem is printed with its index and \
            nothing is imported. Otherwise all are added as pending requests in one transaction. A file holds at \
            most 100,000 requests of at most 1 MiB each, in at most 64 MiB. See docs/export.md.
            """
    )

    @OptionGroup public var database: DatabaseOptions

    @OptionGroup public var identity: IdentityOptions

    @Argument(help: ArgumentHelp("The JSON file, or - for standard input.", valueName: "file"), completion: .file(extensions: ["json"]))
    public var file: String

    public init() {}

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let logger = database.logger(context)
        let source = file == "-" ? "standard input" : file
        // The file's text is let go once it is read: what is imported is kept, not the text too.
        switch RequestImport.parse(try readImportFile(file, source: source, maximumBytes: RequestImport.maximumBytes, context: context)) {
        case let .problems(problems):
            throw importRefusal(problems, source: source, logName: "inbox import", context: context, logger: logger)
        case let .requests(requests):
            let db = try database.openStore(environment: context.environment, logger: logger)
            let ids = try failing("inbox import", logger: logger, saying: " Nothing was imported.") { () throws(StorageError) in
                try db.importRequests(requests, now: context.now(), createdBy: identity.person)
            }
            logger.info("inbox import", metadata: ["count": "\(ids.count)", "file": "\(source)"])
            try finishing(context, writing: "Imported \(ids.count) request\(plural(ids.count)).\n")
        }
    }
}

/// `tabshell inbox reopen ID` and `tabshell inbox remove ID`: one request by its id.
public protocol RequestChanging: CommandBody {
    var database: DatabaseOptions { get }
    var id: Int64 { get }
    /// The log's name for it: `inbox reopen`, `inbox remove`.
    static var logName: String { get }
    func change(_ db: any RecordStore) throws(StorageError) -> RequestChange
}

extension RequestChanging {
    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let (logger, db) = try database.open(context, mustExist: true)
        let change = try failing(Self.logName, logger: logger) { () throws(StorageError) in try self.change(db) }
        let sentence = change.sentence { Sanitizer(unicode: context.localeIsUTF8).line($0) }
        logger.info("\(Self.logName)", metadata: ["id": "\(id)", "found": "\(change != .notFound(id: id))"])
        if case .notFound = change { throw Failure(sentence) }
        try finishing(context, writing: sentence + "\n")
    }
}

/// `tabshell inbox reopen ID`: a done request pending again.
public struct InboxReopen: RequestChanging {
    public static let configuration = CommandConfiguration(
        commandName: "reopen",
        abstract: "Make a done request pending again.",
        discussion: "The records that answered it keep naming it. Deleting the last record that answered a request reopens it too."
    )

    @OptionGroup public var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The request's id (tabshell inbox list shows them).", valueName: "id"))
    public var id: Int64

    public static let logName = "inbox reopen"

    public init() {}

    public func change(_ db: any RecordStore) throws(StorageError) -> RequestChange {
        try db.reopenRequest(id: id)
    }
}

/// `tabshell inbox remove ID`: a request deleted; the records that answered it stay.
public struct InboxRemove: RequestChanging {
    public static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a request from the Inbox.",
        discussion: "The records that answered it stay in History, answering no request from then on; the command says how many."
    )

    @OptionGroup public var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The request's id (tabshell inbox list shows them).", valueName: "id"))
    public var id: Int64

    public static let logName = "inbox remove"

    public init() {}

    public func change(_ db: any RecordStore) throws(StorageError) -> RequestChange {
        try db.removeRequest(id: id)
    }
}
