import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `history import` on both engines: what the export writes goes back in through Done's own
/// rows, all or nothing (the command and every format: CommandTests' HistoryImportTests).
@Suite("History import on both engines")
struct HistoryImportStorageTests {
    static let batchCodes = [
        Barcode(value: "4006381333931", symbology: .ean13), Barcode(value: "(01)09506000134352(17)201225(10)L;1", symbology: .gs1128),
        Barcode(value: "4006381333931", symbology: .ean13), Barcode(value: "A\u{1B}[2J;\\", symbology: .freeText),
    ]

    /// A request, a batch answering nothing, a product with two photos answering the request,
    /// and a note (opening with U+FEFF, which JSONSerialization drops from a raw string); returns
    /// their ids.
    static func seed(_ db: any RecordStore, in temp: TemporaryDirectory) throws -> [Int64] {
        let request = try db.addRequest(
            title: "Shelf \u{202E}4", body: "body\r\nline", kind: .product, now: Clock.minutesAgo(30), createdBy: "ana", requester: "chef")
        var batch = BatchLines()
        for code in batchCodes { batch.add(code) }
        let staging = try db.beginStaging()
        for (name, bytes) in [("front.png", TestImages.png(width: 40, height: 30)), ("side.jpg", TestImages.jpeg(width: 20, height: 10))] {
            _ = try staging.stage(fileAt: try TestImages.write(bytes, named: name, in: temp.url), originalName: name, maxBytes: 1 << 20)
        }
        return [
            try db.commitCapture(
                CaptureSubmission(kind: .batch, lines: batch.lines, codeSource: .scanner), staging: nil, now: Clock.minutesAgo(20), capturedBy: "bo"),
            try db.commitCapture(
                CaptureSubmission(
                    kind: .product, barcode: Barcode(value: "5901234123457", symbology: .ean13), requestID: request, photos: staging.photos,
                    codeSource: .paste), staging: staging, now: Clock.minutesAgo(10), capturedBy: nil),
            try db.commitCapture(CaptureSubmission(kind: .note, note: "\u{FEFF}esc \u{1B} bel \u{07}"), staging: nil, now: Clock.minutesAgo(5), capturedBy: "ana"),
        ]
    }

    /// Every record as JSON lines; photo paths cut to their formats (the files are new).
    static func exported(_ db: any RecordStore) throws -> [String] {
        var lines: [String] = []
        try db.exportHistory(ids: 1...Int64.max, start: { _ in }) { lines.append(JSONText.record($0)) }
        return lines.map { $0.replacing(#/"path":"[^"]*\.([a-z]+)"/#) { "\"path\":\"….\($0.1)\"" } }
    }

    @Test(arguments: StoreEngine.allCases) func everyFormatComesBackWhole(engine: StoreEngine) throws {
        let source = try TemporaryDirectory()
        let db = try source.store(engine)
        _ = try Self.seed(db, in: source)
        var jsonl = ""
        var csv = CSVText.row(CSVText.columns)
        try db.exportHistory(ids: 1...Int64.max, start: { _ in }) { record in
            jsonl += JSONText.record(record) + "\n"
            csv += CSVText.record(record)
        }
        let before = try Self.exported(db)
        // history list reads a batch's lines too, and where each code came from
        var listed: [ExportedRecord] = []
        try db.historyListing(limit: nil) { listed.append($0) }
        #expect(listed.map(\.kind) == [.note, .product, .batch])
        #expect(listed[2].lines.map(\.quantity) == [2, 1, 1] && listed[2].lines.map(\.barcode) == [Self.batchCodes[0], Self.batchCodes[1], Self.batchCodes[3]])
        #expect(listed.map(\.source) == [nil, .paste, .scanner])
        #expect(
            before[0].contains(
                #""lines":[{"value":"4006381333931","symbology":"ean13","count":2},{"value":"(01)09506000134352(17)201225(10)L;1","symbology":"gs1_128","gs1":{"01":"09506000134352","17":"2020-12-25","10":"L;1"},"count":1}"#
            ))

        for (format, text) in [(HistoryImport.Format.jsonl, jsonl), (.csv, csv)] {
            let target = try TemporaryDirectory()
            let store = try target.store(engine)
            #expect(HistoryImport.format(of: Data(text.utf8)) == format)
            guard case var .history(history) = HistoryImport.parse(Data(text.utf8), now: Clock.now) else {
                Issue.record("\(format) did not parse")
                continue
            }
            #expect(HistoryImport.stagePhotos(of: &history, store: store).isEmpty)
            #expect(try store.importHistory(history).recordIDs == [1, 2, 3])
            #expect(try Self.exported(store) == before, "\(engine) \(format)")
            #expect(try store.inbox().requests.map(\.status) == [.done])
        }
    }

    @Test(arguments: StoreEngine.allCases) func aFailureInTheTransactionLeavesNothing(engine: StoreEngine) throws {
        let source = try TemporaryDirectory()
        let db = try source.store(engine)
        _ = try Self.seed(db, in: source)
        var jsonl = ""
        try db.exportHistory(ids: 1...Int64.max, start: { _ in }) { jsonl += JSONText.record($0) + "\n" }
        let target = try TemporaryDirectory()
        let store = try target.store(engine)
        guard case var .history(history) = HistoryImport.parse(Data(jsonl.utf8), now: Clock.now) else {
            Issue.record("did not parse")
            return
        }
        #expect(HistoryImport.stagePhotos(of: &history, store: store).isEmpty)
        // The last record breaks a rule only the schema checks, after the others were written
        history.records[2].capturedBy = String(repeating: "x", count: 65)

        #expect(throws: StorageError.self) { try store.importHistory(history) }

        #expect(try store.storedCount() == 0)
        #expect(try store.inbox().requests.isEmpty, "the requests went with the records")
        let staged = try #require(history.records[1].staging)
        #expect(staged.isOpen && staged.photos.count == 2, "the photos are still staged, as after a failed Done")
        #expect(staged.photos.allSatisfy { FileManager.default.fileExists(atPath: staged.fileURL(of: $0).path) })
        history.discardStaging()
    }

    /// The file's records as `history import` reads them, with their photos staged in `store`.
    static func staged(_ text: String, in store: any RecordStore) throws -> ImportedHistory {
        guard case var .history(history) = HistoryImport.parse(Data(text.utf8), now: Clock.now) else {
            throw StorageError.invalidInput("did not parse")
        }
        let matches = try store.importMatches(history)
        history = history.removing(present: matches)
        #expect(HistoryImport.stagePhotos(of: &history, store: store).isEmpty)
        return history
    }

    @Test(arguments: StoreEngine.allCases) func importingTheSameHistoryTwiceAddsNothing(engine: StoreEngine) throws {
        let source = try TemporaryDirectory()
        let db = try source.store(engine)
        _ = try Self.seed(db, in: source)
        var jsonl = ""
        try db.exportHistory(ids: 1...Int64.max, start: { _ in }) { jsonl += JSONText.record($0) + "\n" }
        #expect(jsonl.contains(#/"uid":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"}/#))
        let before = try Self.exported(db)

        // Into the store it came from: everything is there already.
        let again = try Self.staged(jsonl, in: db)
        #expect(again.records.isEmpty)
        #expect(try db.importHistory(again) == HistoryImportReport(recordIDs: [], skippedRecords: 0, addedRequests: 0))
        #expect(try Self.exported(db) == before)

        // Into another store, twice: the second adds nothing, and the request is there once.
        let target = try TemporaryDirectory()
        let store = try target.store(engine)
        #expect(try store.importHistory(Self.staged(jsonl, in: store)).recordIDs == [1, 2, 3])
        guard case let .history(whole) = HistoryImport.parse(Data(jsonl.utf8), now: Clock.now) else { throw StorageError.invalidInput("") }
        let matches = try store.importMatches(whole)
        #expect(matches.presentRecords == [0: 1, 1: 2, 2: 3] && matches.presentRequests == [0: 1])
        // Inside the transaction too (another import may have come first): nothing is added.
        #expect(try store.importHistory(whole) == HistoryImportReport(recordIDs: [], skippedRecords: 3, addedRequests: 0))
        #expect(try store.storedCount() == 3)
        #expect(try store.requestListing(limit: nil).count == 1)
        #expect(try Self.exported(store) == before)
    }

    @Test(arguments: StoreEngine.allCases) func anExportWithoutUIDsIsRecognisedByContent(engine: StoreEngine) throws {
        let source = try TemporaryDirectory()
        let db = try source.store(engine)
        _ = try Self.seed(db, in: source)
        var jsonl = ""
        try db.exportHistory(ids: 1...Int64.max, start: { _ in }) { jsonl += JSONText.record($0) + "\n" }
        // As an export from before uids wrote it.
        let old = jsonl.replacing(#/,"uid":"[^"]*"/#, with: "")
        #expect(!old.contains("uid"))

        // Into the store it came from: recognised by what each record is.
        #expect(try db.importMatches(Self.staged(old, in: db)).presentRecords.isEmpty, "staged() left out what is present")
        guard case let .history(whole) = HistoryImport.parse(Data(old.utf8), now: Clock.now) else { throw StorageError.invalidInput("") }
        #expect(try db.importMatches(whole).presentRecords.count == 3)
        #expect(try db.importMatches(whole).presentRequests.count == 1)

        // Into another store, twice.
        let target = try TemporaryDirectory()
        let store = try target.store(engine)
        #expect(try store.importHistory(Self.staged(old, in: store)).recordIDs == [1, 2, 3])
        #expect(try store.importHistory(Self.staged(old, in: store)).recordIDs == [])
        #expect(try store.storedCount() == 3)
        #expect(try store.requestListing(limit: nil).count == 1)

        // A record changed since is a different record: it is added, linked to the request there.
        var changed = whole
        changed.records[1].note = "changed"
        #expect(try store.importMatches(changed).presentRecords.keys.sorted() == [0, 2])
        #expect(try store.importMatches(changed).presentRequests == [0: 1])
    }
}
