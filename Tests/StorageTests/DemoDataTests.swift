import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

@testable import SQLiteStorage
@testable import Storage

@Suite("Demo data")
struct DemoDataTests {
    @Test func seedsRequestsAndValidRecordsInThePast() throws {
        // Given an empty database
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)

        // When
        try AppDatabase.seedDemo(db, now: Clock.now)

        // Then: four requests of four kinds, one done
        let inbox = try db.inbox()
        #expect(Set(inbox.requests.map(\.kind)) == [.barcode, .note, .photos, .product])
        #expect(inbox.pendingCount == 3)
        #expect(inbox.requests.last?.status == .done)

        // And eight records, newest first, all in the past, codes valid, some linked
        let page = try db.historyPage(HistoryPageRequest(start: 0, count: 100))
        #expect(page.totalCount == 8)
        #expect(page.rows.allSatisfy { $0.createdAt < Clock.now })
        #expect(page.rows.map(\.createdAt) == page.rows.map(\.createdAt).sorted(by: >))
        for code in page.rows.compactMap(\.barcode) {
            #expect(BarcodeValidator.validate(code.value, allowFreeText: false) == .success(code))
        }
        #expect(Set(page.rows.compactMap(\.barcode?.symbology)) == [.ean13, .upcA, .ean8])
        #expect(page.rows.contains { $0.note == "寿司 🍣 sushi" })
        #expect(page.rows.contains { $0.note?.contains("\n") == true })
        #expect(page.rows.contains { $0.requestTitle != nil })
        #expect(try db.integrityCheck() == ["ok"])
    }

    @Test func theProductRecordHasTwoRealPNGPhotos() throws {
        // Given
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)

        // When
        try AppDatabase.seedDemo(db, now: Clock.now)

        // Then: the product record has two photos whose files are in the media folder, are
        // PNGs the inspector reads with the recorded size, and nothing is left for the sweep
        let page = try db.historyPage(HistoryPageRequest(start: 0, count: 100))
        let product = try #require(page.rows.first { $0.kind == .product })
        let photos = try db.photos(forRecord: product.id)
        #expect(photos.map(\.originalName) == ["coffee-beans-front.png", "coffee-beans-barcode.png"])
        for photo in photos {
            let bytes = [UInt8](try Data(contentsOf: db.media.url(forStoredName: photo.storedName)))
            #expect(Int64(bytes.count) == photo.byteSize)
            let inspected = try #require(ImageInspector.inspect(header: Array(bytes.prefix(ImageInspector.headerLength))))
            #expect(inspected.format == .png)
            #expect(inspected.pixelWidth == photo.pixelWidth && inspected.pixelHeight == photo.pixelHeight)
            #expect(permissions(db.media.url(forStoredName: photo.storedName).path) == 0o600)
        }
        let report = try db.recover(graceSeconds: 0, now: Clock.now.addingTimeInterval(7200))
        #expect(report.quarantinedFiles == 0)
    }

    @Test func pngChecksumsMatchKnownValues() {
        // Known answers: the CRC-32 of "IEND" ends every PNG; Adler-32 of "Wikipedia" is RFC 1950's classic.
        #expect(DemoPNG.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(DemoPNG.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        // A stored block holds at most 65,535 bytes: a bigger image spans several, the last final.
        let stream = DemoPNG.zlibStored([UInt8](repeating: 7, count: 70_000))
        #expect(stream.prefix(3) == [0x78, 0x01, 0x00])
        #expect(stream.count == 2 + (5 + 65_535) + (5 + 4_465) + 4)
    }
}
