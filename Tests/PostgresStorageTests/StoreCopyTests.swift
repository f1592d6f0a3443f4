import CaptureMode
import Domain
import Foundation
import PostgresNIO
import SQLiteStorage
import Storage
import TabShell
import TestSupport
import Testing

@testable import PostgresStorage

/// `tabshell db copy`: everything arrives, both sides' checksums agree, and a copy that cannot
/// finish leaves the target as it was.
@Suite("db copy", .tags(.postgres))
struct StoreCopyTests {
    /// An SQLite store of `records` records (a tenth with a photo, some answering requests, GS1
    /// codes and batches among them), a few products and changed settings.
    static func sourceStore(records: Int, files: TestFolder) throws -> AppDatabase {
        let db = try AppDatabase.open(at: files.url.appendingPathComponent("source.sqlite"))
        var settings = Settings.default
        settings.maximumPhotos = 7
        try db.saveSettings(settings)
        let start = Date(timeIntervalSince1970: 1_770_000_000)
        var requests: [Int64] = []
        for index in 0..<50 {
            requests.append(
                try db.addRequest(
                    title: "Request \(index)", body: "b\(index)", kind: .note, now: start, createdBy: "ana",
                    requester: index % 2 == 0 ? "chef" : nil))
        }
        let photos = try (0..<20).map { try files.png("p\($0).png", seed: $0) }
        for index in 0..<records {
            let now = start.addingTimeInterval(Double(index))
            if index % 10 == 0 {
                let staging = try db.beginStaging()
                let photo = try staging.stage(fileAt: photos[index / 10 % photos.count], originalName: "shot \(index).png", maxBytes: 1 << 20)
                try db.commitCapture(
                    CaptureSubmission(kind: .photos, requestID: index % 200 == 0 ? requests[index / 200 % 50] : nil, photos: [photo]),
                    staging: staging, now: now, capturedBy: "bo")
            } else if index % 10 == 1 {
                let code = Barcode(value: "(01)09506000134352(10)L\(index)", symbology: .gs1128)
                try db.commitCapture(CaptureSubmission(kind: .barcode, barcode: code, codeSource: .scanner), staging: nil, now: now, capturedBy: "ana")
            } else if index % 10 == 2 {
                let lines = [BatchLine(barcode: Barcode(value: "96385074", symbology: .ean8), quantity: index % 7 + 1)]
                try db.commitCapture(CaptureSubmission(kind: .batch, lines: lines), staging: nil, now: now, capturedBy: "cy")
            } else {
                try db.commitCapture(CaptureSubmission(kind: .note, note: "note \(index) é ✓"), staging: nil, now: now, capturedBy: nil)
            }
        }
        return db
    }

    @Test func tenThousandRecordsWithPhotosArriveAndBothChecksumsAgree() throws {
        let files = try TestFolder()
        let source = try Self.sourceStore(records: 10_000, files: files)
        let scratch = try ScratchDatabase()
        let target = try PostgresStore.open(scratch.location, folder: files.url.appendingPathComponent("host"), listen: false)
        defer { target.close() }

        let report = try StoreCopy.copy(from: source, to: target)

        #expect(report.requests == 50)
        #expect(report.records == 10_000)
        #expect(report.photos == 1_000)
        #expect(report.photoContents == 20)
        #expect(report.sourceChecksum == report.targetChecksum)
        #expect(report.sourceChecksum.count == 64)
        // What the app reads is the same on both sides.
        for mode in HistoryBrowseMode.allCases {
            for start in [0, 4_321, 9_990] {
                let request = HistoryPageRequest(start: start, count: 10, mode: mode)
                #expect(try target.historyPage(request) == source.historyPage(request), "\(mode) at \(start)")
            }
        }
        #expect(try target.inbox() == source.inbox())
        #expect(try target.settings() == source.settings())
        // Identities go along: both sides' exports name the same records and requests, so an
        // import of either into the other adds nothing.
        for id: Int64 in [1, 2, 201, 4_321, 10_000] {
            let before = try #require(try source.exportedRecord(id: id))
            let after = try #require(try target.exportedRecord(id: id))
            #expect(before.uid != nil && after.uid == before.uid, "record \(id)")
            #expect(after.requestUID == before.requestUID, "the request of record \(id)")
        }
        #expect(try source.exportedRecord(id: 1)?.requestUID != nil)
        let sourceDetail = try #require(try source.recordDetail(id: 1))
        let targetDetail = try #require(try target.recordDetail(id: 1))
        #expect(targetDetail.record == sourceDetail.record)
        let copied = try target.photoFile(storedName: targetDetail.photos[0].storedName)
        let original = try source.photoFile(storedName: sourceDetail.photos[0].storedName)
        #expect(FileManager.default.contents(atPath: copied.path) == FileManager.default.contents(atPath: original.path))
        // New records on the server get ids after the copied ones.
        let next = try target.commitCapture(CaptureSubmission(kind: .note, note: "after the copy"), staging: nil, now: Date(), capturedBy: nil)
        #expect(next == 10_001)

        // A second copy into a store that is not empty is refused, and changes nothing.
        #expect(throws: StorageError.self) { try StoreCopy.copy(from: source, to: target) }
        #expect(try target.historyPage(HistoryPageRequest(start: 0, count: 1)).totalCount == 10_001)
    }

    @Test func aCatalogOfMorePagesThanOneArrivesWholeInCodeOrder() throws {
        let files = try TestFolder()
        let source = try Self.sourceStore(records: 3, files: files)
        let products: [(String, Product)] = (0..<2_345).map { index in
            let brand: String? = index % 3 == 0 ? nil : "B\(index % 5)"
            let quantity: String? = index % 2 == 0 ? "\(index) g" : nil
            let energy: Double? = index % 4 == 0 ? Double(index) / 4 : nil
            let product = Product(name: "Item \(index) é", brand: brand, quantity: quantity, energyKcal: energy)
            return (String(format: "%014d", 40_000_000_000 + index * 7), product)
        }
        try source.writing { session throws(StorageError) in
            for start in stride(from: 0, to: products.count, by: CatalogRows.batchSize) {
                try CatalogRows.upsert(Array(products[start..<min(start + CatalogRows.batchSize, products.count)]), session)
            }
        }
        let scratch = try ScratchDatabase()
        let target = try PostgresStore.open(scratch.location, folder: files.url.appendingPathComponent("host"), listen: false)
        defer { target.close() }

        let report = try StoreCopy.copy(from: source, to: target)

        #expect(report.products == products.count)
        #expect(report.sourceChecksum == report.targetChecksum)
        var copied: [(String, Product)] = []
        try target.catalogListing(limit: nil, search: nil) { code, product in copied.append((code, product)) }
        #expect(copied.map { $0.0 } == products.map { $0.0 })
        #expect(copied.map { $0.1 } == products.map { $0.1 })
    }

    @Test func aCopyThatCannotFinishLeavesTheTargetEmpty() throws {
        let files = try TestFolder()
        let source = try Self.sourceStore(records: 300, files: files)
        // A photo file lost from the source's media folder: the copy stops there.
        let detail = try #require(try source.recordDetail(id: 291))
        try FileManager.default.removeItem(at: try source.photoFile(storedName: detail.photos[0].storedName))
        let scratch = try ScratchDatabase()
        let target = try PostgresStore.open(scratch.location, folder: files.url.appendingPathComponent("host"), listen: false)
        defer { target.close() }

        #expect {
            try StoreCopy.copy(from: source, to: target)
        } throws: { error in
            (error as? StorageError)?.message.contains("shot 290.png") == true
        }
        #expect(try target.historyPage(HistoryPageRequest(start: 0, count: 1)).totalCount == 0)
        #expect(try target.requestListing(limit: nil).isEmpty)
        #expect(try target.settings() == Settings.default)
    }
}
