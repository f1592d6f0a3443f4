import CaptureMode
import Foundation
import TabShell

/// A request to add to the Inbox, checked by ``RequestImport/parse(_:)``.
public struct NewRequest: Equatable, Sendable {
    public var title: String
    public var body: String
    public var kind: CaptureKind
    /// Who asked (`from`), checked by ``StorageLimits/requesterName(_:)``.
    public var requester: String?

    public init(title: String, body: String = "", kind: CaptureKind, requester: String? = nil) {
        self.title = title
        self.body = body
        self.kind = kind
        self.requester = requester
    }
}

/// One bad entry of an import file: where it is and what is wrong, as a sentence.
public struct ImportProblem: Equatable, Sendable, CustomStringConvertible {
    /// The entry's index in the `list` array (0 for the first); nil for the file as a whole.
    public var index: Int?
    /// What the entries are called: `requests` (`inbox import`), `records` (`history import`).
    public var list: String
    public var reason: String
    /// The line of the file it is on (1 for the first), for a file read by lines such as CSV,
    /// where a person finds a row by its line; nil where the index says where.
    public var line: Int?

    public init(index: Int?, list: String = "requests", reason: String, line: Int? = nil) {
        self.index = index
        self.list = list
        self.reason = reason
        self.line = line
    }

    /// `requests[3]: reason`, printable: the reason quotes the file (a key, a value), and
    /// whatever in it a terminal would act on is shown as a placeholder instead.
    public var description: String {
        let reason = Sanitizer(unicode: true).line(self.reason)
        if let line { return "line \(line): \(reason)" }
        return index.map { "\(list)[\($0)]: \(reason)" } ?? reason
    }
}

/// The file `tabshell inbox import` reads (docs/export.md): either a JSON array of request
/// objects, or an object `{"version": 1, "requests": [...]}` such as `tabshell inbox list --json`
/// prints. Each request has `title` (required), `body`, `kind` (default `barcode`) and `from` (who
/// asked, at most 64 characters); `id`,
/// `status`, `createdAt`, `doneAt` and `createdBy` are accepted and ignored (an import always adds new,
/// pending requests); any other key is an error, so a typo never loses a field silently.
public enum RequestImport {
    /// The largest file accepted, so a wrong file cannot exhaust memory.
    public static let maximumBytes = 64 << 20
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

    /// Checks the whole file and returns every request, or every problem found (never only the first).
    public static func parse(_ data: Data) -> Outcome {
        guard data.count <= maximumBytes else {
            return .problems([ImportProblem(index: nil, reason: "The file is larger than \(maximumBytes >> 20) MiB.")])
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            // The one format it reads, said plainly (a CSV given here is the likeliest mistake).
            return .problems([ImportProblem(index: nil, reason: notJSON)])
        }
        let entries: [Any]
        if let array = json as? [Any] {
            entries = array
        } else if let object = json as? [String: Any] {
            var problems: [ImportProblem] = []
            if let version = object["version"], (version as? Int) != 1 {
                problems.append(ImportProblem(index: nil, reason: "Unknown \"version\" \(version); this tabshell reads version 1."))
            }
            for key in object.keys.sorted() where key != "version" && key != "requests" {
                problems.append(ImportProblem(index: nil, reason: "Unknown top-level key \"\(key)\"."))
            }
            guard let array = object["requests"] as? [Any] else {
                problems.append(ImportProblem(index: nil, reason: "The object has no \"requests\" array."))
                return .problems(problems)
            }
            guard problems.isEmpty else { return .problems(problems) }
            entries = array
        } else {
            return .problems([ImportProblem(index: nil, reason: "Expected an array of requests or an object with \"requests\".")])
        }

        var requests: [NewRequest] = []
        var problems: [ImportProblem] = []
        for (index, entry) in entries.enumerated() {
            let (request, reasons) = check(entry)
            if let request { requests.append(request) }
            problems += reasons.map { ImportProblem(index: index, reason: $0) }
        }
        return problems.isEmpty ? .requests(requests) : .problems(problems)
    }

    private static func check(_ entry: Any) -> (NewRequest?, [String]) {
        guard let object = entry as? [String: Any] else {
            return (nil, ["expected an object with a \"title\"."])
        }
        var reasons: [String] = []
        for key in object.keys.sorted() where !knownKeys.contains(key) && !ignoredKeys.contains(key) {
            reasons.append("unknown key \"\(key)\" (known: body, from, kind, title).")
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
