import CaptureMode
import Foundation
import Storage
import TabShell
import Testing

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
}
