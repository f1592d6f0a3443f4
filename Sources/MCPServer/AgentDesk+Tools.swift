import Domain
import Foundation
import MCP
import Storage

extension AgentDesk {
    /// Carries out one tool call. Every failure an agent can cause comes back as a result with
    /// `isError` and one sentence; a store that fails says its own sentence the same way.
    public func call(_ name: String, arguments: [String: Value]?) async -> CallTool.Result {
        guard let tool = AgentTool(rawValue: name) else {
            let known = AgentTool.allCases.map(\.rawValue).joined(separator: ", ")
            return Self.refusal("There is no tool named \(Self.printable(String(name.prefix(64)))); the tools are \(known).")
        }
        let arguments = ToolArguments(tool: tool.rawValue, arguments)
        do {
            try arguments.refuseUnknown(tool.argumentNames)
            switch tool {
            case .requestCapture: return try await fileRequest(arguments)
            case .waitForAnswer: return try await waitForAnswer(arguments)
            case .listRequests: return try await listRequests(arguments)
            case .searchRecords: return try await searchRecords(arguments)
            case .getRecord: return try await getRecord(arguments)
            case .cancelRequest: return try await changeRequest(arguments) { try $0.removeRequest(id: $1) }
            case .reopenRequest: return try await changeRequest(arguments) { try $0.reopenRequest(id: $1) }
            }
        } catch let refusal as ToolRefusal {
            return Self.refusal(refusal.sentence)
        } catch let error as StorageError {
            return Self.refusal(error.message)
        } catch is CancellationError {
            return Self.refusal("The call was cancelled.")
        } catch {
            return Self.refusal("The call failed: \(Self.printable(String(describing: error))).")
        }
    }

    static func refusal(_ sentence: String) -> CallTool.Result {
        CallTool.Result(content: [.text(text: sentence, annotations: nil, _meta: nil)], isError: true)
    }

    static func text(_ text: String, structured: Value? = nil) -> CallTool.Result {
        CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: structured, isError: false)
    }

    /// Text from outside made printable before it is quoted back.
    static func printable(_ text: String) -> String {
        Sanitizer(unicode: true).line(text)
    }

    // MARK: - The tools

    private func fileRequest(_ arguments: ToolArguments) async throws -> CallTool.Result {
        let title = try arguments.string("title", maximumCharacters: StorageLimits.maximumTitleLength, required: true) ?? ""
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ToolRefusal("title must not be empty.") }
        let kindName = try arguments.choice("kind", CaptureKind.requestable.map(\.rawValue), fallback: CaptureKind.barcode.rawValue)
        let kind = CaptureKind(rawValue: kindName) ?? .barcode
        let body = try arguments.string("body", maximumCharacters: StorageLimits.maximumBodyLength) ?? ""
        let from = try arguments.string("from", maximumCharacters: StorageLimits.maximumRequesterLength)
        if let from, case let .failure(problem) = StorageLimits.requesterName(from) {
            throw ToolRefusal("from: " + problem.message)
        }
        try takeFiling()
        let person = person
        let moment = now()
        let id = try await onStore { store in
            try store.addRequest(title: title, body: body, kind: kind, now: moment, createdBy: person, requester: from)
        }
        return Self.text(
            "Filed request #\(id) (\(kind.rawValue)): \(Self.printable(title)). It is in the tabshell Inbox now; "
                + "call wait_for_answer with request_id \(id) to get the person's capture.",
            structured: .object(["request_id": .int(Int(id)), "status": "pending"]))
    }

    private func waitForAnswer(_ arguments: ToolArguments) async throws -> CallTool.Result {
        let id = try arguments.integer("request_id", in: ToolArguments.idRange)
        let seconds = try arguments.seconds("timeout_seconds", in: 0...limits.longestWait, fallback: 60)
        try beginWait()
        defer { endWait() }
        switch try await answer(to: Int64(id), within: seconds) {
        case .gone:
            throw ToolRefusal("There is no request #\(id): request_id must be an id that request_capture or list_requests gave.")
        case .withdrawn:
            return Self.text(
                "Request #\(id) was withdrawn while waiting (cancel_request, or someone removed it from the Inbox); nobody will answer it.",
                structured: .object(["request_id": .int(id), "status": "cancelled"]))
        case .pending where isClosing:
            return Self.text(
                "Request #\(id) is still pending; the wait ended early because the client closed its end.",
                structured: .object(["request_id": .int(id), "status": "pending"]))
        case .pending:
            return Self.text(
                "Request #\(id) is still pending after \(Self.seconds(seconds)): nobody has answered it yet. "
                    + "Call wait_for_answer again to keep waiting.",
                structured: .object(["request_id": .int(id), "status": "pending"]))
        case .answered(_, let recordID):
            return try await record(recordID, answering: id)
        }
    }

    private func listRequests(_ arguments: ToolArguments) async throws -> CallTool.Result {
        let status = try arguments.choice("status", ["pending", "answered", "all"], fallback: "pending")
        let limit = try arguments.integer("limit", in: 1...limits.listLimit, fallback: 20)
        let requests = try await onStore { store in
            try store.requestListing(limit: nil).lazy.filter { request in
                switch status {
                case "pending": request.status == .pending
                case "answered": request.status == .done
                default: true
                }
            }.prefix(limit).map { $0 }
        }
        let lines = requests.map { JSONText.request($0) }
        let structured: Value = .object(["requests": .array(lines.map(Self.value))])
        let heading =
            requests.isEmpty
            ? "No \(status == "all" ? "" : status + " ")requests."
            : "\(requests.count) \(status == "all" ? "" : status + " ")request\(requests.count == 1 ? "" : "s"), newest first (JSON, one a line):"
        return Self.text(([heading] + lines).joined(separator: "\n"), structured: structured)
    }

    private func searchRecords(_ arguments: ToolArguments) async throws -> CallTool.Result {
        let query = try arguments.string("query", maximumCharacters: StorageLimits.maximumSearchLength)?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let limit = try arguments.integer("limit", in: 1...limits.listLimit, fallback: 20)
        let records = try await onStore { store -> [ExportedRecord] in
            var found: [ExportedRecord] = []
            if let query, !query.isEmpty {
                for row in try store.search(query, limit: limit) {
                    if let record = try store.exportedRecord(id: row.id) { found.append(record) }
                }
            } else {
                try store.historyListing(limit: limit) { found.append($0) }
            }
            return found
        }
        guard !records.isEmpty else {
            return Self.text(query.map { "No records match \(Self.printable($0))." } ?? "No records yet.", structured: .object(["records": []]))
        }
        let lines = records.map { JSONText.listedRecord($0) }
        return Self.text(
            (["\(records.count) record\(records.count == 1 ? "" : "s"), newest first (JSON, one a line; get_record shows one whole):"]
                + lines).joined(separator: "\n"),
            structured: .object(["records": .array(lines.map(Self.value))]))
    }

    private func getRecord(_ arguments: ToolArguments) async throws -> CallTool.Result {
        let id = try arguments.integer("record_id", in: ToolArguments.idRange)
        return try await record(Int64(id), answering: nil)
    }

    /// `cancel_request` and `reopen_request`: the change the Inbox's own keys and `inbox
    /// remove|reopen` make, said in the same sentence.
    private func changeRequest(
        _ arguments: ToolArguments, _ change: @escaping @Sendable (any RecordStore, Int64) throws -> RequestChange
    ) async throws -> CallTool.Result {
        let id = try arguments.integer("request_id", in: ToolArguments.idRange)
        let result = try await onStore { try change($0, Int64(id)) }
        let status: Value
        switch result {
        case .notFound:
            throw ToolRefusal("There is no request #\(id): request_id must be an id that request_capture or list_requests gave.")
        case .alreadyPending, .reopened: status = "pending"
        case .removed: status = "cancelled"
        }
        return Self.text(result.sentence(title: Self.printable), structured: .object(["request_id": .int(id), "status": status]))
    }

    /// A record as the export writes it, then its photos as images (each with its facts).
    private func record(_ id: Int64, answering requestID: Int?) async throws -> CallTool.Result {
        let found = try await onStore { store -> (ExportedRecord, [URL?])? in
            guard let record = try store.exportedRecord(id: id) else { return nil }
            let files = record.photos.map { photo in try? store.photoFile(storedName: photo.storedName) }
            return (record, files)
        }
        guard let (record, files) = found else { throw ToolRefusal("There is no record #\(id): record_id must be an id a search gave.") }
        var content: [Tool.Content] = []
        let lead = requestID.map { "Request #\($0) was answered by record #\(id)" } ?? "Record #\(id)"
        let json = JSONText.record(record)
        content.append(.text(text: "\(lead) (JSON, as history export writes it):\n" + json, annotations: nil, _meta: nil))
        var structured: [String: Value] = ["record_id": .int(Int(id)), "record": Self.value(json)]
        if let requestID {
            structured["request_id"] = .int(requestID)
            structured["status"] = "answered"
        }
        for (photo, file) in zip(record.photos, files) {
            let facts =
                "Photo \(photo.position + 1) of \(record.photos.count): \(Self.printable(photo.originalName)), "
                + "\(photo.format.rawValue), \(photo.pixelWidth)×\(photo.pixelHeight) px, \(photo.byteSize) bytes"
            guard let file else {
                content.append(.text(text: facts + " (its file could not be read).", annotations: nil, _meta: nil))
                continue
            }
            do {
                let image = try await Task.detached { try PhotoThumbnail.jpeg(of: file) }.value
                content.append(
                    .text(text: facts + "; shown below at \(image.width)×\(image.height) px, \(image.bytes.count) bytes.", annotations: nil, _meta: nil))
                content.append(.image(data: image.bytes.base64EncodedString(), mimeType: "image/jpeg", annotations: nil, _meta: nil))
            } catch {
                content.append(.text(text: facts + " (not shown: \(error.sentence)).", annotations: nil, _meta: nil))
            }
        }
        return CallTool.Result(content: content, structuredContent: .object(structured), isError: false)
    }

    /// JSON this module wrote (``JSONText``) as a structured value, for `structuredContent`
    /// beside the text that carries the same JSON.
    static func value(_ json: String) -> Value {
        (try? JSONDecoder().decode(Value.self, from: Data(json.utf8))) ?? .string(json)
    }

    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
