import CaptureMode
import Domain
import Foundation
import Logging
import PostgresNIO
import SQLiteStorage
import Scanning
import TabShell
import TestSupport
import Testing

@testable import PostgresStorage
@testable import Storage

#if canImport(Glibc)
import Glibc
#endif

/// A folder of its own for one test (TestSupport's TemporaryFolder), with PNG files to stage.
final class TestFolder: TemporaryFolder, @unchecked Sendable {
    init() throws {
        try super.init(prefix: "tabshell-pg-test")
    }

    /// A small PNG file (distinct by `seed`) in the folder, for staging.
    func png(_ name: String, seed: Int, size: Int = 24) throws -> String {
        let bytes = DemoPNG.encode(width: size, height: size) { x, y in (UInt8((x * 7 + seed) & 0xFF), UInt8((y * 11 + seed) & 0xFF), UInt8(seed & 0xFF)) }
        let path = url.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw TestFailure("cannot write \(path)") }
        return path
    }
}

/// A PostgreSQL store on a scratch database of its own, with this host's folder in `folder`.
func scratchStore(_ scratch: ScratchDatabase, folder: URL, listen: Bool = false) throws -> PostgresStore {
    try PostgresStore.open(scratch.location, folder: folder, listen: listen)
}

/// The same operations on both engines give the same answers: settings, requests, Done with
/// photos, GS1 fields and batch lines, every History browse mode from the top, the bottom and an
/// anchor, search, a record's detail, deleting, and a draft left behind and offered back. The
/// storage suite's promises, held against SQLite (the reference, tested in full in StorageTests)
/// and PostgreSQL side by side.
@Suite("Both engines answer alike", .tags(.postgres))
struct EngineParityTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    /// What a store answers to one fixed script, as text that compares.
    static func exercise(_ store: any RecordStore, files: TestFolder) throws -> [String] {
        var seen: [String] = []
        func note(_ label: String, _ value: Any) { seen.append("\(label): \(value)") }
        func at(_ minutes: Int) -> Date { start.addingTimeInterval(Double(minutes) * 60) }

        note("settings at first", try store.settings())
        var settings = Settings.default
        settings.maximumPhotos = 5
        settings.autoAdvanceMilliseconds = 1200
        settings.separatorStandIn = "~"
        settings.tabBarPosition = .top
        try store.saveSettings(settings)
        note("settings saved", try store.settings())
        note("bad setting", Result { () throws(StorageError) in try store.saveSettings(Settings(autoAdvanceMilliseconds: 99_999)) })

        let pallet = try store.addRequest(title: "  Scan the pallet  ", body: "dock 4", kind: .barcode, now: at(0), createdBy: "ana", requester: "chef")
        let shelf = try store.addRequest(title: "Photo of shelf 12", body: "", kind: .photos, now: at(1), createdBy: nil, requester: nil)
        let product = try store.addRequest(title: "apple crates", body: "", kind: .product, now: at(2), createdBy: "bo", requester: "chef")
        let imported = try store.importRequests(
            [NewRequest(title: "Count the bins", body: "", kind: .note, requester: "ops"), NewRequest(title: "Zebra labels", body: "b", kind: .barcode)],
            now: at(3), createdBy: "ana")
        note("ids", [pallet, shelf, product] + imported)
        note("empty title", Result { () throws(StorageError) in try store.addRequest(title: " ", body: "", kind: .note, now: at(3), createdBy: nil, requester: nil) })
        note("bad requester", Result { () throws(StorageError) in try store.addRequest(title: "x", body: "", kind: .note, now: at(3), createdBy: nil, requester: "\u{7}") })

        // Done, in several shapes.
        let ean = Barcode(value: "4006381333931", symbology: .ean13)
        try store.commitCapture(CaptureSubmission(kind: .barcode, barcode: ean, requestID: pallet, codeSource: .scanner), staging: nil, now: at(10), capturedBy: "ana")
        try store.commitCapture(CaptureSubmission(kind: .note, note: "Pallet 7 is damaged near the shelf"), staging: nil, now: at(11), capturedBy: "bo")
        let photos = try store.beginStaging()
        let first = try photos.stage(fileAt: try files.png("front.png", seed: 1), originalName: "front.png", maxBytes: 1 << 20)
        let second = try photos.stage(fileAt: try files.png("back.png", seed: 2), originalName: "back.png", maxBytes: 1 << 20)
        let withPhotos = try store.commitCapture(
            CaptureSubmission(kind: .photos, requestID: shelf, photos: [second, first]), staging: photos, now: at(12), capturedBy: "ana")
        note("staging gone after Done", !FileManager.default.fileExists(atPath: photos.path))
        // The same picture again, in another record: kept once on a server, shared.
        let again = try store.beginStaging()
        let copy = try again.stage(fileAt: try files.png("front-again.png", seed: 1), originalName: "front-again.png", maxBytes: 1 << 20)
        try store.commitCapture(CaptureSubmission(kind: .photos, photos: [copy]), staging: again, now: at(13), capturedBy: "bo")
        let gs1 = Barcode(value: "(01)09506000134352(10)LOT-7(17)261231", symbology: .gs1128)
        try store.commitCapture(CaptureSubmission(kind: .barcode, barcode: gs1, codeSource: .paste), staging: nil, now: at(14), capturedBy: "ana")
        let lines = [
            BatchLine(barcode: ean, quantity: 3), BatchLine(barcode: Barcode(value: "96385074", symbology: .ean8), quantity: 1),
        ]
        try store.commitCapture(CaptureSubmission(kind: .batch, lines: lines), staging: nil, now: at(15), capturedBy: "bo")
        for minute in 16..<46 {
            let kind: CaptureKind = minute % 3 == 0 ? .note : .barcode
            let code = kind == .barcode ? Barcode(value: String(format: "%013d", minute), symbology: .ean13) : nil
            try store.commitCapture(
                CaptureSubmission(kind: kind, barcode: code, note: kind == .note ? "shelf check \(minute)" : nil, requestID: minute % 4 == 0 ? product : nil),
                staging: nil, now: at(minute), capturedBy: minute % 5 == 0 ? "cy" : "ana")
        }
        // Requesters differing only in case: By requester's groups in byte order on both.
        for (minute, name) in [(46, "bot"), (47, "Bot")] {
            let asked = try store.addRequest(title: "From \(name)", body: "", kind: .note, now: at(minute), createdBy: nil, requester: name)
            try store.commitCapture(
                CaptureSubmission(kind: .note, note: "for \(name)", requestID: asked), staging: nil, now: at(minute), capturedBy: nil)
        }
        // Text in scripts written without spaces: any part of a run is found.
        try store.commitCapture(
            CaptureSubmission(kind: .note, note: "東京の市場で検品 Pallet東京"), staging: nil, now: at(48), capturedBy: "ana")
        try store.commitCapture(CaptureSubmission(kind: .note, note: "서울시장 ทดสอบกันน้ำ"), staging: nil, now: at(49), capturedBy: "bo")
        note(
            "answered a request that is gone",
            Result { () throws(StorageError) in try store.commitCapture(CaptureSubmission(kind: .note, note: "x", requestID: 999), staging: nil, now: at(50), capturedBy: nil) })
        note(
            "too long a note",
            Result { () throws(StorageError) in
                try store.commitCapture(CaptureSubmission(kind: .note, note: String(repeating: "n", count: 10_001)), staging: nil, now: at(50), capturedBy: nil)
            })

        note("inbox", try store.inbox())
        note("inbox of 2", try store.inbox(limit: 2))
        note("listing", try store.requestListing(limit: nil))

        // History: every mode, pages from the top, the bottom and around an anchor.
        for mode in HistoryBrowseMode.allCases {
            let all = try store.historyPage(HistoryPageRequest(start: 0, count: 100, mode: mode))
            note("\(mode) all", normalized(all))
            for (start, count) in [(0, 7), (5, 7), (30, 10), (33, 50)] {
                note("\(mode) \(start)+\(count)", normalized(try store.historyPage(HistoryPageRequest(start: start, count: count, mode: mode))))
            }
            if all.rows.count > 20 {
                let anchor = HistoryAnchor(position: 20, recordID: all.rows[20].id)
                for start in [12, 18, 21, 25] {
                    note(
                        "\(mode) \(start) by anchor",
                        normalized(try store.historyPage(HistoryPageRequest(start: start, count: 6, mode: mode, anchor: anchor))))
                }
            }
        }
        let codesAndScripts = [
            "96385074", "9638", "市場", "京の", "場", "東京の市場", "市東", "pallet東", "pallet 市場", "検品 7", "시장", "กัน", "น้ำ",
        ]
        for query in ["pallet", "PALL", "shelf 12", "4006", "09506000134352", "chef", "zzz", "!!", "ana"] + codesAndScripts {
            note("search \(query)", try store.search(query, limit: 10).map(\.id))
        }
        note("search too long", Result { () throws(StorageError) in try store.search(String(repeating: "a", count: 1001), limit: 5) })

        guard let detail = try store.recordDetail(id: withPhotos) else { throw TestFailure("no detail") }
        note("detail", detail.record)
        note("detail photos", detail.photos.map { "\($0.position) \($0.originalName) \($0.format) \($0.pixelWidth)x\($0.pixelHeight) \($0.byteSize)" })
        for photo in detail.photos {
            let file = try store.photoFile(storedName: photo.storedName)
            let bytes = FileManager.default.contents(atPath: file.path)?.count ?? -1
            note("photo file \(photo.originalName)", bytes)
        }
        note("batch detail", try store.recordDetail(id: 6)?.lines ?? [])
        note("no such record", try store.recordDetail(id: 9999) as Any)
        note("bad photo name", Result { () throws(StorageError) in try store.photoFile(storedName: "../../etc/passwd") })

        note("delete", try store.deleteRecord(id: 2))
        note("delete again", try store.deleteRecord(id: 2))
        note("after delete", normalized(try store.historyPage(HistoryPageRequest(start: 0, count: 5))))

        // A capture left open (a crash): offered back, resumed, then discarded.
        let left = try store.beginStaging()
        _ = try left.stage(fileAt: try files.png("left.png", seed: 9), originalName: "left.png", maxBytes: 1 << 20)
        try left.saveDraft(CaptureDraft(kind: .photos, phase: "photos", note: "half done", updatedAt: at(60)))
        left.close()
        let report = try store.recover(now: at(61))
        note("drafts", report.drafts.map { "\($0.draft.kind) \($0.draft.note ?? "") \($0.draft.photos.count)" })
        if let draft = report.drafts.first {
            let resumed = try store.resumeDraft(draft)
            note("resumed photos", resumed.photos.map(\.originalName))
            resumed.close()
            try store.discardDraft(draft)
        }
        note("after discard", try store.recover(now: at(62)).drafts.count)

        var exported: [String] = []
        try store.exportHistory(ids: 1...Int64.max, start: { exported.append("count \($0)") }) { record in
            let photos = record.photos.map { "\($0.position) \($0.originalName) \($0.byteSize)" }
            // What the export writes of a record (History's list figures are not part of it).
            let row = record.row
            let fields =
                "\(row.id) \(row.kind) \(row.barcode?.value ?? "-") \(row.note ?? "-") \(row.createdAt) \(row.capturedBy ?? "-") \(row.requester ?? "-") \(row.product?.name ?? "-")"
            exported.append("\(fields) \(record.request.map { "\($0)" } ?? "-") \(photos)")
            for photo in record.photos where !FileManager.default.fileExists(atPath: record.path(of: photo)) {
                exported.append("missing file for \(photo.originalName)")
            }
        }
        note("export", exported)
        var listed: [String] = []
        try store.historyListing(limit: 12) { listed.append("\($0.row.id) \($0.row.photoCount) \($0.request?.title ?? "-")") }
        note("listing", listed)
        var all = 0
        try store.historyListing(limit: nil) { _ in all += 1 }
        note("listing all", all)
        note("last id", try store.lastRecordID() as Any)
        note("one record", try store.exportedRecord(id: 5).map { "\($0.row.id) \($0.row.barcode?.value ?? "-")" } as Any)

        // The product catalog: an import (a quoted name, a replaced row, a row without a code),
        // the listing, a lookup by the EAN-13 of a UPC-A row, a record keeping its product's name.
        let catalog = files.url.appendingPathComponent("catalog-\(UUID().uuidString).csv").path
        let csv =
            "barcode,name,brand,quantity\n4006381333931,\"Stabilo pen, black\",Stabilo,1 pc\n012345678905,Widget,,\n"
            + "4006381333931,Stabilo pen,Stabilo,1 pc\n,no code\n"
        _ = FileManager.default.createFile(atPath: catalog, contents: Data(csv.utf8))
        let descriptor = open(catalog, O_RDONLY)
        defer { close(descriptor) }
        note("catalog import", Result { () throws(CatalogImportError) in try store.importCatalog(from: descriptor) })
        var products: [String] = []
        try store.catalogListing(limit: nil, search: nil) { products.append("\($0) \($1)") }
        try store.catalogListing(limit: 5, search: "WIDG") { code, _ in products.append("found \(code)") }
        note("catalog", products)
        note("lookup", try store.product(for: Barcode(value: "0012345678905", symbology: .ean13)) as Any)
        let named = try store.commitCapture(
            CaptureSubmission(kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13)), staging: nil, now: at(70),
            capturedBy: nil)
        note("named record", try store.recordDetail(id: named)?.record.product as Any)
        note("search by product", try store.search("stabilo", limit: 5).map(\.id))
        note("catalog cleared", try store.clearCatalog())
        note("record keeps its name", try store.recordDetail(id: named)?.record.product as Any)

        note("delete all", try store.deleteAllRecords())
        note("empty history", normalized(try store.historyPage(HistoryPageRequest(start: 0, count: 5))))
        return seen
    }

    /// A page without what differs by engine on purpose (nothing, today) — kept as a seam.
    static func normalized(_ page: HistoryPage) -> String {
        "start \(page.start) total \(page.totalCount) people \(page.hasSeveralPeople) rows \(page.rows.map { "\($0.id):\($0.kind):\($0.barcode?.value ?? "-"):\($0.requestTitle ?? "-"):\($0.requester ?? "-"):\($0.photoCount):\($0.firstPhotoName ?? "-"):\($0.batchCodes)/\($0.batchScans):\($0.capturedBy ?? "-")" }.joined(separator: " "))"
    }

    @Test func sqliteAndPostgresAnswerTheScriptTheSame() throws {
        let sqliteFiles = try TestFolder()
        let sqlite = try AppDatabase.open(at: sqliteFiles.url.appendingPathComponent("tabshell.sqlite"))
        let expected = try Self.exercise(sqlite, files: sqliteFiles)

        let scratch = try ScratchDatabase()
        let postgresFiles = try TestFolder()
        let postgres = try scratchStore(scratch, folder: postgresFiles.url)
        defer { postgres.close() }
        let answered = try Self.exercise(postgres, files: postgresFiles)

        #expect(answered.count == expected.count)
        for (sqliteLine, postgresLine) in zip(expected, answered) {
            #expect(postgresLine == sqliteLine)
        }
        // The script reaches what it means to.
        #expect(expected.contains { $0.hasPrefix("drafts: [\"photos half done 1\"]") })
        #expect(expected.contains { $0.hasPrefix("search pallet: [") && !$0.hasSuffix("[]") })
        #expect(expected.contains("search 96385074: [6]"))
        #expect(expected.contains { $0.hasPrefix("search 京の: [") && !$0.hasSuffix("[]") })
        #expect(expected.contains("search 市東: []"))
        #expect(expected.contains { $0.hasPrefix("catalog import: success") })
        #expect(expected.contains { $0.hasPrefix("record keeps its name: Optional(Domain.Product(name: \"Stabilo pen\"") })
        #expect(expected.contains { $0.hasPrefix("export: [\"count ") && $0.contains("back.png") })
    }

    @Test func identicalPhotosAreKeptOnceAndGoWithTheirLastRecord() throws {
        let scratch = try ScratchDatabase()
        let files = try TestFolder()
        let store = try scratchStore(scratch, folder: files.url)
        defer { store.close() }
        var ids: [Int64] = []
        for name in ["a.png", "b.png"] {
            let staging = try store.beginStaging()
            let photo = try staging.stage(fileAt: try files.png(name, seed: 5), originalName: name, maxBytes: 1 << 20)
            ids.append(try store.commitCapture(CaptureSubmission(kind: .photos, photos: [photo]), staging: staging, now: Date(), capturedBy: nil))
        }
        let count = { () throws -> Int in
            try store.pool.withConnection { session throws(StorageError) in try session.value("SELECT count(*) FROM photo_content", as: Int.self) ?? -1 }
        }
        #expect(try count() == 1)
        try store.deleteRecord(id: ids[0])
        #expect(try count() == 1)
        try store.deleteRecord(id: ids[1])
        #expect(try count() == 0)
    }

    @Test func thePhotoCacheFetchesOnceAndStaysUnderItsLimit() throws {
        let scratch = try ScratchDatabase()
        let files = try TestFolder()
        let writer = try scratchStore(scratch, folder: files.url.appendingPathComponent("host-a"))
        defer { writer.close() }
        var names: [String] = []
        for seed in 0..<6 {
            let staging = try writer.beginStaging()
            let photo = try staging.stage(fileAt: try files.png("p\(seed).png", seed: seed, size: 64), originalName: "p\(seed).png", maxBytes: 1 << 20)
            let id = try writer.commitCapture(CaptureSubmission(kind: .photos, photos: [photo]), staging: staging, now: Date(), capturedBy: nil)
            names.append(try writer.recordDetail(id: id)?.photos.first?.storedName ?? "")
        }
        // Another host, with a cache that holds about two of these photos.
        let size = Int64(DemoPNG.encode(width: 64, height: 64) { _, _ in (0, 0, 0) }.count)
        let reader = try PostgresStore.open(
            scratch.location, folder: files.url.appendingPathComponent("host-b"), listen: false, photoCacheLimit: size * 2 + size / 2)
        defer { reader.close() }
        for name in names {
            let file = try reader.photoFile(storedName: name)
            #expect(FileManager.default.fileExists(atPath: file.path))
        }
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: reader.media.mediaDirectory.path)) ?? []
        #expect(cached.count == 2, "\(cached)")
        #expect(cached.contains(names[5]))
        // A photo no record has any more is a sentence, not a crash.
        let gone = String(repeating: "ab", count: 32) + ".png"
        #expect(throws: StorageError.self) { try reader.photoFile(storedName: gone) }
    }
}
