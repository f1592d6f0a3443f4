import Domain
import Foundation

extension HistoryImport {
    /// Reads one file's records: every entry is checked as a JSON object (a CSV row is first
    /// turned into the object its JSON export would be), and every problem is kept.
    struct Reader {
        let now: Date
        var history = ImportedHistory()
        var problems = ProblemList()
        /// Whether the file has more records than ``ImportLimits/maximumRecords`` (read no further).
        var tooMany = false
        /// The requests added so far, by the id the file gives them.
        var requestIndex: [Int64: Int] = [:]
        /// The record that first named each request, for the sentence when another differs.
        var requestNamedBy: [Int: Int] = [:]

        static let recordKeys: Set<String> = [
            "id", "kind", "createdAt", "capturedBy", "barcode", "product", "note", "request", "photos", "source", "lines", "uid",
        ]
        static let requestKeys: Set<String> = [
            "id", "title", "body", "kind", "status", "createdAt", "doneAt", "createdBy", "from", "uid",
        ]
        static let photoKeys: Set<String> = ["position", "path", "originalName", "format", "pixelWidth", "pixelHeight", "byteSize"]
        static let topLevelKeys: Set<String> = ["format", "version", "exportedAt", "recordCount", "records"]

        private mutating func fileProblem(_ reason: String) {
            problems.append(ImportProblem(index: nil, list: "records", reason: reason))
        }

        // MARK: - JSON and JSON lines

        /// `history export --format json`: the object with `records`, or an array of records,
        /// read a record at a time (``JSONEntries``).
        mutating func readJSON(_ data: Data) {
            // What the top-level object says of itself, checked once its records are counted.
            var fileProblems: [String] = []
            var recordCount: Any?
            var recordsTwice = false
            var count = 0
            func given(_ value: JSONEntries.Value) -> Any {
                if case let .parsed(value) = value { return value }
                return "(longer than \(ImportLimits.mebibytes(ImportLimits.maximumEntryBytes)))"
            }
            let read = JSONEntries.read(
                data, list: "records",
                member: { key, value in
                    guard Self.topLevelKeys.contains(key) else {
                        fileProblems.append("Unknown top-level key \"\(key)\".")
                        return
                    }
                    switch key {
                    case "format":
                        if (given(value) as? String) != "tabshell-history" {
                            fileProblems.append("\"format\" is \(Self.quoted(given(value))); history export writes \"tabshell-history\".")
                        }
                    case "version":
                        if (given(value) as? Int) != ExportedRecord.formatVersion {
                            fileProblems.append(
                                "Unknown \"version\" \(Self.quoted(given(value))); this tabshell reads version \(ExportedRecord.formatVersion).")
                        }
                    case "recordCount": recordCount = given(value)
                    case "records": recordsTwice = true
                    default: break  // exportedAt: what the file says of itself, not checked
                    }
                },
                entry: { index, value in
                    guard index < ImportLimits.maximumRecords else {
                        tooMany = true
                        return false
                    }
                    count = index + 1
                    switch value {
                    case .tooLong:
                        problems.append(ImportProblem(index: index, list: "records", reason: ImportLimits.entryTooLong("The record")))
                    case let .parsed(entry):
                        add(entry, index: index)
                    }
                    return !problems.isFull
                })
            switch read {
            case .failure(.notJSON):
                return replaceProblems("The file is not valid JSON.")
            case .failure(.notAContainer):
                return replaceProblems("Expected the object history export --format json writes, or an array of records.")
            case .success(.object(listFound: false)):
                fileProblems.append("The object has no \"records\" array.")
            case .success(.object(listFound: true)):
                if recordsTwice { fileProblems.append("The object has \"records\" twice.") }
                if let recordCount, !tooMany, !problems.isFull, (recordCount as? Int) != count {
                    fileProblems.append("\"recordCount\" is \(Self.quoted(recordCount)) but the file has \(count) records: it is not whole.")
                }
            case .success(.array): break
            }
            // A file that is not an export is told that, not what its records lack.
            if !fileProblems.isEmpty {
                problems = ProblemList()
                for reason in fileProblems { fileProblem(reason) }
            }
        }

        /// Every problem so far replaced by one of the file as a whole.
        private mutating func replaceProblems(_ reason: String) {
            problems = ProblemList()
            fileProblem(reason)
        }

        /// `--format jsonl` and `--follow`: one record object a line; blank lines are skipped.
        mutating func readJSONLines(_ data: Data) {
            var index = 0
            var start = data.startIndex
            while start < data.endIndex, !problems.isFull {
                let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
                var line = data[start..<end]
                start = end < data.endIndex ? end + 1 : end
                if line.last == 0x0D { line = line.dropLast() }
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                guard index < ImportLimits.maximumRecords else {
                    tooMany = true
                    return
                }
                if line.count > ImportLimits.maximumEntryBytes {
                    problems.append(ImportProblem(index: index, list: "records", reason: ImportLimits.entryTooLong("The line")))
                } else if let object = try? JSONSerialization.jsonObject(with: Data(line), options: []) {
                    add(object, index: index)
                } else {
                    problems.append(ImportProblem(index: index, list: "records", reason: "the line is not valid JSON."))
                }
                index += 1
            }
        }

        /// Checks one entry and adds its record, or its problems.
        private mutating func add(_ entry: Any, index: Int, more: (ImportedRecord) -> [String] = { _ in [] }) {
            guard let object = entry as? [String: Any] else {
                problems.append(ImportProblem(index: index, list: "records", reason: "expected a record object with a \"kind\"."))
                return
            }
            var reasons: [String] = []
            let checked = check(object, reasons: &reasons)
            if let (record, _, _) = checked { reasons += more(record) }
            guard reasons.isEmpty, case (var record, let request, let requestUID)? = checked else {
                for reason in reasons { problems.append(ImportProblem(index: index, list: "records", reason: reason)) }
                return
            }
            if let request {
                if let known = request.id > 0 ? requestIndex[request.id] : nil {
                    var same = request
                    same.id = history.requests[known].id
                    guard same == history.requests[known], requestUID == history.requestUIDs[known] else {
                        let first = requestNamedBy[known].map { " the one records[\($0)] names" } ?? " another"
                        problems.append(
                            ImportProblem(index: index, list: "records", reason: "\"request\" \(request.id) differs from\(first)."))
                        return
                    }
                    record.request = known
                } else {
                    record.request = history.requests.count
                    requestNamedBy[history.requests.count] = index
                    if request.id > 0 { requestIndex[request.id] = history.requests.count }
                    history.requests.append(request)
                    history.requestUIDs.append(requestUID)
                }
            }
            history.records.append(record)
        }

        // MARK: - One record

        /// The record an object describes, and the request it answers (its `id` the file's, or
        /// 0 when the file gives none) with the request's `uid`; nil with the reasons when
        /// something is wrong.
        private func check(_ object: [String: Any], reasons: inout [String]) -> (ImportedRecord, InboxRequest?, String?)? {
            let before = reasons.count
            for key in object.keys.sorted() where !Self.recordKeys.contains(key) {
                let hint = key == "photoCount" ? " (history list prints a summary: import what history export writes)" : ""
                reasons.append("unknown key \"\(key)\"\(hint).")
            }
            var fields = Fields(object: object, reasons: reasons)
            defer { reasons = fields.reasons }
            let kind = fields.choice("kind", required: true, among: CaptureKind.allCases)
            let createdAt = fields.time("createdAt") ?? now
            let capturedBy = fields.string("capturedBy")
            if let capturedBy, !(1...StorageLimits.maximumRequesterLength).contains(capturedBy.unicodeScalars.count) {
                fields.reasons.append("\"capturedBy\" must have 1 to \(StorageLimits.maximumRequesterLength) characters.")
            }
            let barcode = fields.nested("barcode") { code in code.barcode() }
            let product = fields.nested("product") { product in product.product() }
            let note = fields.string("note")
            if let note, note.count > StorageLimits.maximumNoteLength {
                fields.reasons.append("\"note\" has \(note.count) characters; at most \(StorageLimits.maximumNoteLength) are allowed.")
            }
            let source = fields.choice("source", among: [CodeSource.scanner, .person, .paste, .photo])
            let lines = fields.list("lines") { line in line.barcode(counted: true).map { BatchLine(barcode: $0.0, quantity: $0.1 ?? 1) } }
            let photos = fields.list("photos") { photo in photo.photo() }
            let answered = fields.nested("request") { request in request.request(answeredAt: createdAt, now: now) }
            let uid = fields.uid()
            for (position, photo) in (fields.object["photos"] as? [Any] ?? []).enumerated() {
                if let given = (photo as? [String: Any])?["position"], (given as? Int) != position {
                    fields.reasons.append("photos[\(position)]: \"position\" is \(Self.quoted(given)), not \(position).")
                }
            }

            guard fields.reasons.count == before, let kind else { return nil }
            let record = ImportedRecord(
                kind: kind, createdAt: createdAt, capturedBy: capturedBy, barcode: barcode?.0, product: product, note: note,
                source: source, lines: lines, photoFiles: photos, uid: uid)
            return (record, answered?.request, answered?.uid)
        }

        static func quoted(_ value: Any) -> String {
            if let text = value as? String { return JSONString.quoted(String(text.prefix(80))) }
            if value is NSNull { return "null" }
            return String(describing: value).prefix(80).description
        }
    }

    /// The fields of one JSON object, read by type; what is wrong goes to `reasons`, each
    /// sentence naming the field (and, inside a nested object, the path to it).
    struct Fields {
        let object: [String: Any]
        var reasons: [String]
        var prefix = ""

        private mutating func wrong(_ key: String, _ what: String) {
            reasons.append("\"\(prefix)\(key)\" \(what)")
        }

        /// A string; nil when missing or null (a reason when `required`).
        mutating func string(_ key: String, required: Bool = false) -> String? {
            switch object[key] {
            case nil, is NSNull:
                if required { wrong(key, "is missing.") }
                return nil
            case let text as String:
                guard !ImportLimits.holdsNUL(text) else {
                    wrong(key, ImportLimits.nulReason)
                    return nil
                }
                return text
            default:
                wrong(key, "must be a string\(required ? "" : " or null").")
                return nil
            }
        }

        /// One of `allowed`, by its name; nil when missing or null (a reason when `required`), or
        /// when it names none of them (a reason that lists them).
        mutating func choice<Value: RawRepresentable & Equatable>(_ key: String, required: Bool = false, among allowed: [Value]) -> Value?
        where Value.RawValue == String {
            guard let name = string(key, required: required) else { return nil }
            guard let value = Value(rawValue: name), allowed.contains(value) else {
                wrong(key, "\(Reader.quoted(name)) is not one of \(allowed.map(\.rawValue).joined(separator: ", ")).")
                return nil
            }
            return value
        }

        /// A whole number of at least `minimum`; nil when missing or null.
        mutating func integer(_ key: String, minimum: Int = 0) -> Int? {
            switch object[key] {
            case nil, is NSNull: return nil
            case let number as Int where number >= minimum: return number
            default:
                wrong(key, "must be a whole number of at least \(minimum).")
                return nil
            }
        }

        /// A time as the export writes it; nil when missing or null.
        mutating func time(_ key: String) -> Date? {
            guard let text = string(key) else { return nil }
            guard let date = ExportTime.date(text) else {
                wrong(key, "is not a time like 2025-06-15T15:06:40.000Z.")
                return nil
            }
            return date
        }

        /// A nested object read by `read`; nil when missing or null.
        mutating func nested<T>(_ key: String, _ read: (inout Fields) -> T?) -> T? {
            switch object[key] {
            case nil, is NSNull: return nil
            case let nested as [String: Any]:
                var fields = Fields(object: nested, reasons: reasons, prefix: prefix + key + ".")
                let value = read(&fields)
                reasons = fields.reasons
                return value
            default:
                wrong(key, "must be an object or null.")
                return nil
            }
        }

        /// An array of objects, each read by `read`; empty when missing or null.
        mutating func list<T>(_ key: String, _ read: (inout Fields) -> T?) -> [T] {
            switch object[key] {
            case nil, is NSNull: return []
            case let array as [Any]:
                var items: [T] = []
                for (index, item) in array.enumerated() {
                    guard let nested = item as? [String: Any] else {
                        reasons.append("\(key)[\(index)]: expected an object.")
                        continue
                    }
                    var fields = Fields(object: nested, reasons: reasons, prefix: "")
                    let before = reasons.count
                    let value = read(&fields)
                    reasons += fields.reasons[before...].map { "\(key)[\(index)]: \($0)" }
                    if let value { items.append(value) }
                }
                return items
            default:
                wrong(key, "must be an array.")
                return []
            }
        }

        /// `uid`: the identity the export wrote; nil when missing or null.
        mutating func uid() -> String? {
            guard let uid = string("uid") else { return nil }
            guard RecordIdentity.isValid(uid) else {
                wrong("uid", "must have 1 to 64 letters, digits, -, _, . or :.")
                return nil
            }
            return uid
        }

        /// Keys this object may not have.
        mutating func unknownKeys(known: Set<String>) {
            for key in object.keys.sorted() where !known.contains(key) {
                reasons.append("unknown key \"\(prefix)\(key)\".")
            }
        }

        // MARK: Nested objects

        /// `{"value", "symbology", "gs1"}` (with `count` for a batch line); `gs1` must be what
        /// the code itself says.
        mutating func barcode(counted: Bool = false) -> (Barcode, Int?)? {
            unknownKeys(known: counted ? ["value", "symbology", "gs1", "count"] : ["value", "symbology", "gs1"])
            let before = reasons.count
            let value = string("value", required: true)
            let symbologyName = string("symbology", required: true)
            let symbology = symbologyName.flatMap(Symbology.init(rawValue:))
            if let symbologyName, symbology == nil {
                wrong("symbology", "\(Reader.quoted(symbologyName)) is not a symbology tabshell knows (docs/scanning.md lists them).")
            }
            if let value, value.isEmpty || value.count > BarcodeValidator.maximumLength {
                wrong("value", "must have 1 to \(BarcodeValidator.maximumLength) characters.")
            }
            let count = counted ? integer("count", minimum: 1) : nil
            if counted, object["count"] == nil { wrong("count", "is missing.") }
            guard reasons.count == before, let value, let symbology else { return nil }
            let barcode = Barcode(value: value, symbology: symbology)
            switch object["gs1"] {
            case nil, is NSNull: break
            case let given as [String: Any]:
                let derived = Dictionary(
                    (value.hasPrefix("(") ? barcode.reading.elements : []).map { ($0.ai, $0.value.text) }, uniquingKeysWith: { $1 })
                if given.count != derived.count || given.contains(where: { derived[$0.key] != ($0.value as? String) }) {
                    wrong("gs1", "does not match the code (it is read from \"value\": leave it out, or export again).")
                }
            default: wrong("gs1", "must be an object.")
            }
            return (barcode, count)
        }

        /// `{"name", "brand"}`.
        mutating func product() -> Product? {
            unknownKeys(known: ["name", "brand"])
            let name = string("name", required: true)
            let brand = string("brand")
            if let name, name.isEmpty { wrong("name", "is empty.") }
            guard let name, !name.isEmpty else { return nil }
            return Product(name: name, brand: brand)
        }

        /// `{"path", "originalName", "format", "pixelWidth", "pixelHeight", "byteSize", "position"}`.
        mutating func photo() -> ImportedPhoto? {
            unknownKeys(known: Reader.photoKeys)
            let before = reasons.count
            let path = string("path", required: true)
            if let path, path.isEmpty { wrong("path", "is empty.") }
            let originalName = string("originalName")
            let format = choice("format", among: ImageFormat.allCases)
            let width = integer("pixelWidth")
            let height = integer("pixelHeight")
            let bytes = integer("byteSize")
            guard reasons.count == before, let path, !path.isEmpty else { return nil }
            return ImportedPhoto(
                path: path, originalName: originalName ?? (path as NSString).lastPathComponent, format: format, pixelWidth: width,
                pixelHeight: height, byteSize: bytes.map(Int64.init))
        }

        /// The request a record answers, as `inbox list --json` and the export write it. It was
        /// answered when the record was made: without a status it is done then.
        mutating func request(answeredAt: Date, now: Date) -> (request: InboxRequest, uid: String?)? {
            unknownKeys(known: Reader.requestKeys)
            let before = reasons.count
            let requestUID = self.uid()
            let id = integer("id", minimum: 1)
            let title = string("title", required: true)?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let title, title.isEmpty || title.count > StorageLimits.maximumTitleLength {
                wrong("title", "must have 1 to \(StorageLimits.maximumTitleLength) characters.")
            }
            let body = string("body") ?? ""
            if body.count > StorageLimits.maximumBodyLength {
                wrong("body", "has \(body.count) characters; at most \(StorageLimits.maximumBodyLength) are allowed.")
            }
            let kind = choice("kind", among: CaptureKind.requestable)
            let statusName = string("status")
            let status = statusName.flatMap(RequestStatus.init(rawValue:))
            if let statusName, status == nil { wrong("status", "\(Reader.quoted(statusName)) is not pending or done.") }
            let createdAt = time("createdAt")
            let doneAt = time("doneAt")
            let createdBy = string("createdBy")
            if let createdBy, !(1...StorageLimits.maximumRequesterLength).contains(createdBy.unicodeScalars.count) {
                wrong("createdBy", "must have 1 to \(StorageLimits.maximumRequesterLength) characters.")
            }
            var requester: String?
            if let from = string("from") {
                switch StorageLimits.requesterName(from) {
                case let .success(name): requester = name
                case let .failure(problem): wrong("from", problem.message)
                }
            }
            guard reasons.count == before, let title else { return nil }
            let answered = status ?? .done
            let request = InboxRequest(
                id: Int64(id ?? 0), title: title, body: body, kind: kind ?? .barcode, status: answered,
                createdAt: createdAt ?? min(answeredAt, now), requester: requester,
                doneAt: answered == .done ? (doneAt ?? (status == nil ? answeredAt : nil)) : doneAt, createdBy: createdBy)
            return (request, requestUID)
        }
    }
}

extension HistoryImport.Reader {
    // MARK: - CSV

    /// `--format csv`: the header names the columns (any the export writes, in any order; one
    /// left out reads as empty); each row becomes the object its JSON export would be, and the
    /// columns derived from others (the GS1 columns, `photo_count`) must agree with them. Read a
    /// row at a time (``DelimitedReader``, a row at most ``ImportLimits/maximumEntryBytes``).
    mutating func readCSV(_ data: Data) {
        var reader = DelimitedReader(data: data, delimiter: UInt8(ascii: ","))
        reader.requiresUTF8 = true
        var header: [String]?
        var columns: [String: Int] = [:]
        var index = 0
        while !problems.isFull {
            let line: Int
            let row: [String]
            do throws(DelimitedReader.Failure) {
                guard let next = try reader.nextRow() else { return }
                (line, row) = next
            } catch {
                switch error {
                case .unclosedQuote: return replaceProblems("A quoted field is never closed: the file is not whole CSV.")
                case .notUTF8: return replaceProblems("The file is not UTF-8 text.")
                case let .unreadable(reason): return replaceProblems("The file cannot be read: \(reason).")
                case let .rowTooLong(line), let .tooManyFields(line):
                    let reason =
                        if case .rowTooLong = error { ImportLimits.entryTooLong("The row") } else {
                            "the row has more than \(Count.grouped(ImportLimits.maximumFields)) fields."
                        }
                    guard header != nil else {
                        return replaceProblems("The header is not one history export writes: \(reason.prefix(1).lowercased())\(reason.dropFirst())")
                    }
                    guard index < ImportLimits.maximumRecords else {
                        tooMany = true
                        return
                    }
                    problems.append(ImportProblem(index: index, list: "records", reason: reason, line: line))
                    index += 1
                    continue
                }
            }
            if row == [""] { continue }  // a blank line
            guard let header else {
                let known = Set(CSVText.columns)
                for (column, name) in row.enumerated() {
                    if !known.contains(name) { fileProblem("Unknown column \(Self.quoted(name)).") }
                    if columns[name] != nil { fileProblem("The column \(Self.quoted(name)) comes twice.") }
                    columns[name] = column
                }
                if columns["kind"] == nil { fileProblem("The header has no \"kind\" column: is this a history export?") }
                guard problems.isEmpty else { return }
                header = row
                continue
            }
            guard index < ImportLimits.maximumRecords else {
                tooMany = true
                return
            }
            // A person finds a row by its line: every problem of a row names it (`line 7: …`).
            let before = problems.list.count
            defer {
                for problem in problems.list.indices[before...] where problems.list[problem].index == index {
                    problems.list[problem].line = line
                }
                index += 1
            }
            guard row.count == header.count else {
                problems.append(
                    ImportProblem(index: index, list: "records", reason: "the row has \(row.count) fields; the header has \(header.count)."))
                continue
            }
            var cells = CSVCells(row: row, columns: columns)
            let object = cells.object()
            guard cells.reasons.isEmpty else {
                for reason in cells.reasons { problems.append(ImportProblem(index: index, list: "records", reason: reason)) }
                continue
            }
            add(object, index: index) { record in cells.derivedColumnProblems(record) }
        }
    }
}

/// One CSV row's cells by column name, unescaped, and the object its JSON export would be.
struct CSVCells {
    let row: [String]
    let columns: [String: Int]
    var reasons: [String] = []

    /// The raw cell; empty when the file has no such column.
    func raw(_ column: String) -> String {
        columns[column].map { row[$0] } ?? ""
    }

    /// The cell unescaped; nil when it is empty.
    mutating func text(_ column: String) -> String? {
        let cell = raw(column)
        guard !cell.isEmpty else { return nil }
        guard let text = CSVText.unescaped(cell[...]) else {
            reasons.append("\"\(column)\" has a \\ that starts no escape (a backslash is written \\\\).")
            return nil
        }
        return text
    }

    /// A list column's items unescaped: `count` of them (an empty cell is none, or one empty
    /// item when one is wanted).
    mutating func items(_ column: String, count: Int) -> [String]? {
        let cell = raw(column)
        if cell.isEmpty { return count == 1 && columns[column] != nil ? [""] : (count == 0 ? [] : nil) }
        guard let items = CSVText.listItems(cell) else {
            reasons.append("\"\(column)\" has a \\ that starts no escape (a backslash is written \\\\).")
            return nil
        }
        guard items.count == count else {
            reasons.append("\"\(column)\" lists \(items.count) items; there are \(count).")
            return nil
        }
        return items
    }

    private mutating func number(_ text: String, _ column: String) -> Int? {
        guard let number = Int(text), number >= 0 else {
            reasons.append("\"\(column)\" has \(HistoryImport.Reader.quoted(text)), not a whole number.")
            return nil
        }
        return number
    }

    /// The record as JSON would hold it (the request, photos and lines as nested objects).
    mutating func object() -> [String: Any] {
        var object: [String: Any] = ["kind": raw("kind")]
        if let createdAt = text("created_at") { object["createdAt"] = createdAt }
        if let value = text("barcode") {
            object["barcode"] = ["value": value, "symbology": raw("symbology")]
        } else if !raw("symbology").isEmpty {
            reasons.append("\"symbology\" is filled but \"barcode\" is empty.")
        }
        object["note"] = text("note") ?? NSNull()
        object["capturedBy"] = text("captured_by") ?? NSNull()
        if let name = text("product_name") {
            object["product"] = ["name": name, "brand": text("product_brand") ?? NSNull()] as [String: Any]
        } else if !raw("product_brand").isEmpty {
            reasons.append("\"product_brand\" is filled but \"product_name\" is empty.")
        }
        if let source = text("source") { object["source"] = source }
        if let uid = text("uid") { object["uid"] = uid }
        object["request"] = request() ?? NSNull()

        let paths = items("photo_paths", count: CSVText.listItems(raw("photo_paths"))?.count ?? 0) ?? []
        if let count = text("photo_count").flatMap({ number($0, "photo_count") }), count != paths.count {
            reasons.append("\"photo_count\" is \(count) but \"photo_paths\" lists \(paths.count).")
        }
        let formats = optionalItems("photo_formats", count: paths.count)
        let sizes = optionalItems("photo_sizes", count: paths.count)
        let bytes = optionalItems("photo_bytes", count: paths.count)
        let names = optionalItems("photo_names", count: paths.count)
        object["photos"] = paths.indices.map { index -> [String: Any] in
            var photo: [String: Any] = ["path": paths[index]]
            if let names { photo["originalName"] = names[index] }
            if let formats { photo["format"] = formats[index] }
            if let sizes {
                let parts = sizes[index].split(separator: "x")
                if parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) {
                    photo["pixelWidth"] = width
                    photo["pixelHeight"] = height
                } else {
                    reasons.append("\"photo_sizes\" has \(HistoryImport.Reader.quoted(sizes[index])), not WIDTHxHEIGHT.")
                }
            }
            if let bytes { photo["byteSize"] = number(bytes[index], "photo_bytes") ?? 0 }
            return photo
        }

        let codes = items("line_codes", count: CSVText.listItems(raw("line_codes"))?.count ?? 0) ?? []
        let symbologies = optionalItems("line_symbologies", count: codes.count)
        let counts = optionalItems("line_counts", count: codes.count)
        if !codes.isEmpty, symbologies == nil || counts == nil {
            reasons.append("a batch's \"line_codes\" need their \"line_symbologies\" and \"line_counts\".")
        }
        object["lines"] = codes.indices.map { index -> [String: Any] in
            [
                "value": codes[index], "symbology": symbologies?[index] ?? "",
                "count": counts.flatMap { number($0[index], "line_counts") } ?? 0,
            ]
        }
        return object
    }

    /// A list column that may be left out (nil then); when there, it has `count` items.
    private mutating func optionalItems(_ column: String, count: Int) -> [String]? {
        guard columns[column] != nil, count > 0 else { return nil }
        return items(column, count: count)
    }

    /// The request columns as the export's `request` object; nil when `request_id` is empty.
    private mutating func request() -> [String: Any]? {
        let keys = [
            ("request_title", "title"), ("request_status", "status"), ("request_from", "from"), ("request_kind", "kind"),
            ("request_body", "body"), ("request_created_at", "createdAt"), ("request_done_at", "doneAt"),
            ("request_created_by", "createdBy"), ("request_uid", "uid"),
        ]
        guard let id = text("request_id") else {
            if let (filled, _) = keys.first(where: { !raw($0.0).isEmpty }) {
                reasons.append("\"\(filled)\" is filled but \"request_id\" is empty.")
            }
            return nil
        }
        var request: [String: Any] = ["id": number(id, "request_id") ?? 0, "body": text("request_body") ?? ""]
        for (column, key) in keys where key != "body" {
            if let value = text(column) { request[key] = value }
        }
        return request
    }

    /// The columns read from others — GTIN, lot, expiry and serial of the code and of each
    /// line — must say what the codes say.
    func derivedColumnProblems(_ record: ImportedRecord) -> [String] {
        var reasons: [String] = []
        let code = CSVText.gs1Columns(record.barcode)
        let lines = record.lines.map { CSVText.gs1Columns($0.barcode) }
        let derived = [("gtin", "line_gtins"), ("lot", "line_lots"), ("expiry", "line_expiries"), ("serial", "line_serials")]
        for (index, (column, lineColumn)) in derived.enumerated() {
            if columns[column] != nil, CSVText.unescaped(raw(column)[...]) != code[index] {
                reasons.append("\"\(column)\" is not what the code says (\(HistoryImport.Reader.quoted(code[index]))).")
            }
            let said = lines.map { $0[index] }
            let given = CSVText.listItems(raw(lineColumn)) ?? []
            // An empty cell is a list of empty items, however many lines there are.
            if columns[lineColumn] != nil, given != said, !(given.isEmpty && said.allSatisfy(\.isEmpty)) {
                reasons.append("\"\(lineColumn)\" is not what the lines' codes say.")
            }
        }
        return reasons
    }
}
