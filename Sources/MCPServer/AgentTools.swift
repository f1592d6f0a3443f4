import Domain
import Foundation
import MCP
import Scanning
import Storage

/// The tools an agent sees: their names, what each is for (written for an agent to act on) and
/// their argument schemas. `AgentDesk+Tools.swift` carries each out.
enum AgentTool: String, CaseIterable, Sendable {
    case requestCapture = "request_capture"
    case waitForAnswer = "wait_for_answer"
    case listRequests = "list_requests"
    case searchRecords = "search_records"
    case getRecord = "get_record"
    case cancelRequest = "cancel_request"
    case reopenRequest = "reopen_request"

    /// The argument names the tool takes (anything else is refused): its schema's properties.
    var argumentNames: Set<String> {
        guard case let .object(schema) = definition(limits: .init()).inputSchema, case let .object(properties)? = schema["properties"] else { return [] }
        return Set(properties.keys)
    }

    static func definitions(limits: AgentDesk.Limits) -> [Tool] {
        allCases.map { $0.definition(limits: limits) }
    }

    func definition(limits: AgentDesk.Limits) -> Tool {
        let kinds = CaptureKind.requestable.map(\.rawValue)
        switch self {
        case .requestCapture:
            return Tool(
                name: rawValue,
                description: """
                    Ask a person at a tabshell terminal to capture something in the physical world: scan a barcode, \
                    photograph an object, scan a product and photograph it, or write a note. The request appears at once \
                    in every open tabshell Inbox. Returns the request's id; then call wait_for_answer with it to get the \
                    person's capture (the code, its GS1 fields, the note, and the photos as images).
                    """,
                inputSchema: Self.schema(
                    [
                        "title": .object([
                            "type": "string", "maxLength": .int(StorageLimits.maximumTitleLength),
                            "description": "What to capture, as the person reads it in the Inbox (e.g. \"Scan the pallet at door 3\").",
                        ]),
                        "kind": .object([
                            "type": "string", "enum": .array(kinds.map { .string($0) }),
                            "description":
                                "barcode: one code; photos: one or more photos; product: a code then photos; note: text. Default barcode.",
                        ]),
                        "body": .object([
                            "type": "string", "maxLength": .int(StorageLimits.maximumBodyLength),
                            "description": "More detail for the person, shown under the title.",
                        ]),
                        "from": .object([
                            "type": "string", "maxLength": .int(StorageLimits.maximumRequesterLength),
                            "description": "Who asks (your agent's name), shown with the request.",
                        ]),
                    ], required: ["title"]),
                annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true)
            )
        case .waitForAnswer:
            return Tool(
                name: rawValue,
                description: """
                    Wait until a person answers the request (they capture it and press Done in tabshell), for at most \
                    timeout_seconds. Returns the answering record — code, symbology, GS1 fields, note, a batch's lines, \
                    who captured it — with its photos as images, or says the request is still pending (call again to keep \
                    waiting). Never hangs past the timeout.
                    """,
                inputSchema: Self.schema(
                    [
                        "request_id": .object(["type": "integer", "minimum": 1, "description": "The id request_capture returned."]),
                        "timeout_seconds": .object([
                            "type": "number", "minimum": 0, "maximum": .int(Int(limits.longestWait)),
                            "description": "How long to wait; default 60.",
                        ]),
                    ], required: ["request_id"]),
                annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true)
            )
        case .listRequests:
            return Tool(
                name: rawValue,
                description: "List Inbox requests, newest first: pending ones (not answered yet), answered ones, or all.",
                inputSchema: Self.schema([
                    "status": .object(["type": "string", "enum": ["pending", "answered", "all"], "description": "Default pending."]),
                    "limit": .object(["type": "integer", "minimum": 1, "maximum": .int(limits.listLimit), "description": "Default 20."]),
                ]),
                annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)
            )
        case .searchRecords:
            return Tool(
                name: rawValue,
                description: """
                    Find captured records (newest first) by a code, a product name, a note's words or a request's title; \
                    without a query, the newest records. Each is summarised; get_record returns one whole with its photos.
                    """,
                inputSchema: Self.schema([
                    "query": .object(["type": "string", "maxLength": .int(StorageLimits.maximumSearchLength)]),
                    "limit": .object(["type": "integer", "minimum": 1, "maximum": .int(limits.listLimit), "description": "Default 20."]),
                ]),
                annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)
            )
        case .getRecord:
            return Tool(
                name: rawValue,
                description: """
                    One captured record whole, as `tabshell history export --format json` writes it (code, symbology, GS1 \
                    fields, note, a batch's lines, the request it answers, who captured it, photo facts), followed by its \
                    photos as images scaled to at most 1024 px on the longest side and 512 KB each.
                    """,
                inputSchema: Self.schema(["record_id": .object(["type": "integer", "minimum": 1])], required: ["record_id"]),
                annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)
            )
        case .cancelRequest:
            return Tool(
                name: rawValue,
                description: """
                    Withdraw a request you no longer need: it leaves every tabshell Inbox at once, so nobody captures it. \
                    Records that already answered it stay in History (answering no request). A wait on it ends saying \
                    it is gone.
                    """,
                inputSchema: Self.requestIDSchema,
                annotations: .init(readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true)
            )
        case .reopenRequest:
            return Tool(
                name: rawValue,
                description: """
                    Ask again: an answered request becomes pending in the Inbox, so a person captures it anew (the \
                    record that answered it stays in History). Then call wait_for_answer for the new answer.
                    """,
                inputSchema: Self.requestIDSchema,
                annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true)
            )
        }
    }

    private static let requestIDSchema = schema(
        ["request_id": .object(["type": "integer", "minimum": 1, "description": "The id request_capture returned."])], required: ["request_id"])

    /// An object's schema: these properties, the required ones, and no others.
    private static func schema(_ properties: [String: Value], required: [String] = []) -> Value {
        var schema: [String: Value] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return .object(schema)
    }
}
