import Domain
import Foundation

/// A request to add to the Inbox, checked by ``RequestImport/parse(_:)``.
public struct NewRequest: Equatable, Sendable {
    public var title: String
    public var body = ""
    public var kind: CaptureKind
    /// Who asked (`from`), checked by ``StorageLimits/requesterName(_:)``.
    public var requester: String?
}

/// One bad entry of an import file: where it is and what is wrong, as a sentence.
public struct ImportProblem: Equatable, Sendable, CustomStringConvertible {
    /// The entry's index in the `list` array (0 for the first); nil for the file as a whole.
    public var index: Int?
    /// What the entries are called: `requests` (`inbox import`), `records` (`history import`).
    public var list = "requests"
    public var reason: String
    /// The line of the file it is on (1 for the first), for a file read by lines such as CSV,
    /// where a person finds a row by its line; nil where the index says where.
    public var line: Int?

    /// `requests[3]: reason`, printable: the reason quotes the file (a key, a value), and
    /// whatever in it a terminal would act on is shown as a placeholder instead.
    public var description: String {
        let reason = Sanitizer(unicode: true).line(self.reason)
        if let line { return "line \(line): \(reason)" }
        return index.map { "\(list)[\($0)]: \(reason)" } ?? reason
    }
}

/// The problems of an import file, kept up to ``ImportLimits/maximumProblems`` and one more: a
/// list that long says there are more, and the file is read no further.
struct ProblemList {
    var list: [ImportProblem] = []

    var isEmpty: Bool { list.isEmpty }
    /// Past the bound: what follows is not kept.
    var isFull: Bool { list.count > ImportLimits.maximumProblems }

    mutating func append(_ problem: ImportProblem) {
        if !isFull { list.append(problem) }
    }
}

/// The file `tabshell inbox import` reads (docs/export.md): either a JSON array of request
/// objects, or an object `{"version": 1, "requests": [...]}` such as `tabshell inbox list --json`
/// prints. Each request has `title` (required), `body`, `kind` (default `barcode`) and `from` (who
/// asked, at most 64 characters); `id`,
/// `status`, `createdAt`, `doneAt` and `createdBy` are accepted and ignored (an import always adds new,
/// pending requests); any other key is an error, so a typo never loses a field silently.
public enum RequestImport {
    /// The largest file accepted (``ImportLimits/maximumFileBytes``).
    public static let maximumBytes = ImportLimits.maximumFileBytes
    static let knownKeys: Set<String> = ["title", "body", "kind", "from"]
    static let ignoredKeys: Set<String> = ["id", "status", "createdAt", "doneAt", "createdBy"]

    /// What ``parse(_:)`` found: every request, or every problem.
    public enum Outcome: Equatable, Sendable {
        case requests([NewRequest])
        case problems([ImportProblem])
    }

    /// What a file that is not JSON is told: what this import reads.
    public static let notJSON =
        "The file is not valid JSON: inbox import reads JSON only (an array of requests, or what tabshell inbox list --json prints)."

    /// What a file with more requests than one import adds is told.
    public static let tooManyRequests = ImportLimits.tooManyEntries("requests", maximum: ImportLimits.maximumRequests)

    /// Checks the whole file and returns every request, or the problems found (every one, up to
    /// ``ImportLimits/maximumProblems``). The file is read one request at a time (``JSONEntries``),
    /// so memory grows with the requests it adds, at most ``ImportLimits/maximumRequests``, not
    /// with what the file holds.
    public static func parse(_ data: Data) -> Outcome {
        guard data.count <= maximumBytes else {
            return .problems([ImportProblem(index: nil, reason: "The file is larger than \(ImportLimits.mebibytes(maximumBytes)).")])
        }
        var requests: [NewRequest] = []
        var fileProblems: [ImportProblem] = []
        var problems = ProblemList()
        var tooMany = false
        var listTwice = false
        let read = JSONEntries.read(
            data, list: "requests",
            member: { key, value in
                switch (key, value) {
                case ("version", .parsed(let version)) where (version as? Int) == 1: break
                case ("version", .parsed(let version)):
                    fileProblems.append(ImportProblem(index: nil, reason: "Unknown \"version\" \(version); this tabshell reads version 1."))
                case ("version", .tooLong):
                    fileProblems.append(ImportProblem(index: nil, reason: "Unknown \"version\"; this tabshell reads version 1."))
                case ("requests", _): listTwice = true
                default:
                    fileProblems.append(ImportProblem(index: nil, reason: "Unknown top-level key \"\(key)\"."))
                }
            },
            entry: { index, value in
                guard index < ImportLimits.maximumRequests else {
                    tooMany = true
                    return false
                }
                switch value {
                case .tooLong:
                    problems.append(ImportProblem(index: index, reason: ImportLimits.entryTooLong("The request")))
                case let .parsed(entry):
                    let (request, reasons) = check(entry)
                    if let request, problems.isEmpty { requests.append(request) }
                    for reason in reasons { problems.append(ImportProblem(index: index, reason: reason)) }
                }
                return !problems.isFull
            })
        if tooMany { return .problems([ImportProblem(index: nil, reason: tooManyRequests)]) }
        switch read {
        case .failure(.notJSON):
            // The one format it reads, said plainly (a CSV given here is the likeliest mistake).
            return .problems([ImportProblem(index: nil, reason: notJSON)])
        case .failure(.notAContainer):
            return .problems([ImportProblem(index: nil, reason: "Expected an array of requests or an object with \"requests\".")])
        case .success(.object(listFound: false)):
            fileProblems.append(ImportProblem(index: nil, reason: "The object has no \"requests\" array."))
        case .success:
            if listTwice { fileProblems.append(ImportProblem(index: nil, reason: "The object has \"requests\" twice.")) }
        }
        // A file that is not what the import reads at all is told that, not what its entries lack.
        if !fileProblems.isEmpty { return .problems(fileProblems) }
        return problems.isEmpty ? .requests(requests) : .problems(problems.list)
    }

    private static func check(_ entry: Any) -> (NewRequest?, [String]) {
        guard let object = entry as? [String: Any] else {
            return (nil, ["expected an object with a \"title\"."])
        }
        var reasons: [String] = []
        for key in object.keys.sorted() where !knownKeys.contains(key) && !ignoredKeys.contains(key) {
            reasons.append("unknown key \"\(key)\" (known: body, from, kind, title).")
        }
        for key in ["title", "body", "from"] {
            if let text = object[key] as? String, ImportLimits.holdsNUL(text) { reasons.append("\"\(key)\" \(ImportLimits.nulReason)") }
        }
        var title = ""
        switch object["title"] {
        case nil: reasons.append("\"title\" is missing.")
        case let text as String:
            title = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if title.isEmpty { reasons.append("\"title\" is empty.") }
            if title.count > StorageLimits.maximumTitleLength {
                reasons.append("\"title\" has \(title.count) characters; at most \(StorageLimits.maximumTitleLength) are allowed.")
            }
        default: reasons.append("\"title\" must be a string.")
        }
        var body = ""
        switch object["body"] {
        case nil, is NSNull: break
        case let text as String:
            body = text
            if body.count > StorageLimits.maximumBodyLength {
                reasons.append("\"body\" has \(body.count) characters; at most \(StorageLimits.maximumBodyLength) are allowed.")
            }
        default: reasons.append("\"body\" must be a string.")
        }
        var kind = CaptureKind.barcode
        let kinds = CaptureKind.requestable.map(\.rawValue).joined(separator: ", ")
        switch object["kind"] {
        case nil: break
        case let text as String:
            if let known = CaptureKind(rawValue: text), CaptureKind.requestable.contains(known) {
                kind = known
            } else {
                reasons.append("\"kind\" \"\(text)\" is not one of \(kinds).")
            }
        default: reasons.append("\"kind\" must be a string, one of \(kinds).")
        }
        var requester: String?
        switch object["from"] {
        case nil, is NSNull: break
        case let text as String:
            switch StorageLimits.requesterName(text) {
            case let .success(name): requester = name
            case let .failure(problem): reasons.append("\"from\": \(problem.message)")
            }
        default: reasons.append("\"from\" must be a string.")
        }
        return (reasons.isEmpty ? NewRequest(title: title, body: body, kind: kind, requester: requester) : nil, reasons)
    }
}
