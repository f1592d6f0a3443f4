import Domain
import Foundation

/// A photo of a record to import: the file the export names, and what the export says of it
/// (checked against the file once it is staged).
public struct ImportedPhoto: Equatable, Sendable {
    public var path: String
    public var originalName: String
    public var format: ImageFormat?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var byteSize: Int64?
}

/// A History record to add with `tabshell history import`, with everything the export wrote
/// of it: it keeps its time, who captured it, its product, where its code came from and the
/// request it answers and its `uid`; only its id (and its photos' stored names) are new.
public struct ImportedRecord {
    public var kind: CaptureKind
    public var createdAt: Date
    public var capturedBy: String?
    public var barcode: Barcode?
    public var product: Product?
    public var note: String?
    public var source: CodeSource?
    /// A batch's lines in scan order.
    public var lines: [BatchLine] = []
    /// The request it answers: an index into ``ImportedHistory/requests``.
    public var request: Int?
    /// Its photos' files, in order, as the file names them.
    public var photoFiles: [ImportedPhoto] = []
    /// The identity the export wrote (nil in a file from before uids): the record keeps it.
    public var uid: String?
    /// Once ``HistoryImport/stagePhotos(of:store:)`` has copied them: the staging session that
    /// holds its photos, and the photos as staged, in order.
    public var staging: StagingSession?
    public var photos: [StagedPhoto] = []

    /// What Done would hand to storage for this record.
    public func submission(requestID: Int64?, photos: [StagedPhoto]) -> CaptureSubmission {
        CaptureSubmission(
            kind: kind, barcode: barcode, note: note, requestID: requestID, photos: photos, lines: lines, codeSource: source,
            product: product)
    }
}

/// What `history import` adds: the requests the records answer (as the export wrote them: each
/// is added anew, with its status and times) and the records, in the file's order.
public struct ImportedHistory {
    public var requests: [InboxRequest]
    /// Each request's `uid` as the file gives it (nil when it gives none), by index.
    public var requestUIDs: [String?]
    public var records: [ImportedRecord]

    public init(requests: [InboxRequest] = [], records: [ImportedRecord] = [], requestUIDs: [String?] = []) {
        self.requests = requests
        self.records = records
        self.requestUIDs = requestUIDs
    }

    /// Checks every request and record as Done checks a capture, before anything is written;
    /// returns each record's photos as staged.
    public func validated() throws(StorageError) -> [[StagedPhoto]] {
        guard records.count <= ImportLimits.maximumRecords else { throw .invalidInput(HistoryImport.tooManyRecords) }
        for request in requests {
            _ = try RequestLimits.validate(title: request.title, body: request.body, requester: request.requester)
        }
        var photos: [[StagedPhoto]] = []
        photos.reserveCapacity(records.count)
        for record in records {
            if let index = record.request, !requests.indices.contains(index) {
                throw .invalidInput("A record to import answers a request the import does not have.")
            }
            photos.append(try RequestLimits.validate(record.submission(requestID: nil, photos: record.photos), staging: record.staging))
        }
        return photos
    }

    /// The staging id each record is committed with: its staging session's, kept by the first
    /// record of that session (recovery then knows the session was committed), nil for the others.
    public func stagingIDs() -> [String?] {
        var claimed = Set<ObjectIdentifier>()
        return records.map { record in
            guard let staging = record.staging, claimed.insert(ObjectIdentifier(staging)).inserted else { return nil }
            return staging.stagingID
        }
    }

    /// Deletes the staging folders (after the commit, or when the import is given up).
    public func discardStaging() {
        for record in records { record.staging?.discard() }
    }
}

/// `tabshell history import`: reads what `history export` writes — JSON, JSON lines or CSV —
/// back into records (docs/export.md). The whole file is checked first, every problem found
/// (never only the first, up to ``ImportLimits/maximumProblems``), each as `records[INDEX]: reason`.
public enum HistoryImport {
    /// The largest file accepted, as for `inbox import` (``ImportLimits/maximumFileBytes``).
    public static let maximumBytes = ImportLimits.maximumFileBytes
    /// What a file with more records than one import adds is told.
    public static let tooManyRecords = ImportLimits.tooManyEntries("records", maximum: ImportLimits.maximumRecords)
    /// Photos a staging session holds at most: a large import is staged in several, so that
    /// each session's draft stays small.
    static let photosPerStaging = 64
    /// The largest photo file read.
    static let maximumPhotoBytes: Int64 = 1 << 30

    public enum Format: String, CaseIterable, Sendable {
        case json, jsonl, csv
    }

    public enum Outcome {
        case history(ImportedHistory)
        case problems([ImportProblem])
    }

    /// The format of `data`, from its content: JSON lines when its first line is a record object
    /// (one with a `kind`, or one too long to be read followed by more lines), JSON when it starts
    /// with `{` or `[` otherwise, else CSV.
    public static func format(of data: Data) -> Format {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let start = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .json }
        if bytes[start] == UInt8(ascii: "[") { return .json }
        guard bytes[start] == UInt8(ascii: "{") else { return .csv }
        // The first line is parsed only when it can be one record. One longer than that is a
        // whole JSON file on one line (`jq -c`) when nothing follows it, else a JSON line too long
        // to import, which the JSON lines reader names.
        let firstLine = bytes[start...].prefix(ImportLimits.maximumEntryBytes + 1).prefix { $0 != 0x0A }
        guard firstLine.count <= ImportLimits.maximumEntryBytes else {
            let rest = bytes[start...].drop { $0 != 0x0A }
            return rest.contains { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ? .jsonl : .json
        }
        if let object = try? JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any], object["kind"] != nil {
            return .jsonl
        }
        return .json
    }

    /// Checks the whole file and returns every record, or the problems found (every one, up to
    /// ``ImportLimits/maximumProblems``). The file is read one record at a time, so memory
    /// grows with the records it adds, at most ``ImportLimits/maximumRecords``, not with what
    /// the file holds.
    public static func parse(_ data: Data, format: Format? = nil, now: Date) -> Outcome {
        guard data.count <= maximumBytes else {
            return .problems([ImportProblem(index: nil, reason: "The file is larger than \(ImportLimits.mebibytes(maximumBytes)).")])
        }
        var reader = Reader(now: now)
        switch format ?? Self.format(of: data) {
        case .json: reader.readJSON(data)
        case .jsonl: reader.readJSONLines(data)
        case .csv: reader.readCSV(data)
        }
        if reader.tooMany {
            return .problems([ImportProblem(index: nil, list: "records", reason: tooManyRecords)])
        }
        if reader.problems.isEmpty, reader.history.records.isEmpty {
            reader.problems.append(ImportProblem(index: nil, reason: "The file has no records."))
        }
        return reader.problems.isEmpty ? .history(reader.history) : .problems(reader.problems.list)
    }

    /// Copies every record's photos from the files the export names into staging sessions of
    /// `store` (as a capture stages the photos a person chooses), checking each against what
    /// the file says of it. Returns the problems, `records[INDEX]: photos[N]: …`; when there are
    /// any, every session is discarded.
    public static func stagePhotos(of history: inout ImportedHistory, store: any RecordStore) -> [ImportProblem] {
        var problems: [ImportProblem] = []
        var current: StagingSession?
        for index in history.records.indices where !history.records[index].photoFiles.isEmpty {
            if current == nil || (current?.photos.count ?? 0) >= photosPerStaging {
                do throws(StorageError) {
                    current = try store.beginStaging()
                } catch {
                    problems.append(ImportProblem(index: nil, reason: error.message))
                    break
                }
            }
            guard let staging = current else { break }
            history.records[index].staging = staging
            for (number, file) in history.records[index].photoFiles.enumerated() {
                switch stage(file, into: staging) {
                case let .success(photo): history.records[index].photos.append(photo)
                case let .failure(reason):
                    problems.append(ImportProblem(index: index, list: "records", reason: "photos[\(number)]: \(reason.message)"))
                }
            }
        }
        if !problems.isEmpty {
            history.discardStaging()
            current?.discard()
        }
        return problems
    }

    private static func stage(_ file: ImportedPhoto, into staging: StagingSession) -> Result<StagedPhoto, StorageError> {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            if errno == ENOENT {
                return .failure(.fileRefused("\(file.path) does not exist (photos are read from the paths the export names)."))
            }
            return .failure(.fileRefused("cannot read \(file.path): \(DurableFiles.reason(errno: errno))."))
        }
        let photo: StagedPhoto
        do throws(StorageError) {
            photo = try staging.stage(fileAt: file.path, originalName: file.originalName, maxBytes: maximumPhotoBytes)
        } catch {
            return .failure(.fileRefused("\(file.path): \(error.message)"))
        }
        let expected = (file.format ?? photo.format, file.pixelWidth ?? photo.pixelWidth, file.pixelHeight ?? photo.pixelHeight)
        if expected != (photo.format, photo.pixelWidth, photo.pixelHeight) || (file.byteSize ?? photo.byteSize) != photo.byteSize {
            try? staging.remove(photo)
            func facts(_ format: ImageFormat, _ width: Int, _ height: Int, _ bytes: Int64) -> String {
                "\(width)x\(height) \(format.title) of \(bytes) bytes"
            }
            return .failure(
                .fileRefused(
                    "\(file.path) is a \(facts(photo.format, photo.pixelWidth, photo.pixelHeight, photo.byteSize)), not the "
                        + "\(facts(expected.0, expected.1, expected.2, file.byteSize ?? photo.byteSize)) the file says."))
        }
        return .success(photo)
    }
}
