import CaptureMode
import Domain
import Foundation
import GRDB
import TabShell
import Testing

@testable import SQLiteStorage
@testable import Storage

/// Who captured what: `capture.capturedBy` and `request.createdBy`.
@Suite("Identities")
struct IdentityTests {
    static let ean = Barcode(value: "4006381333931", symbology: .ean13)

    @Test func oldRowsKeepNullAndNewRowsNameThePerson() throws {
        // Given a database made before identities (schema v4) with a request and a record
        let temp = try TemporaryDirectory()
        let queue = try rawQueue(temp.databaseURL)
        try Migrations.migrator.migrate(queue, upTo: "v4")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO request(title, kind, createdAt) VALUES ('Old request', 'note', ?)", arguments: [Clock.now])
            try db.execute(sql: "INSERT INTO capture(kind, note, createdAt) VALUES ('note', 'old pallet note', ?)", arguments: [Clock.now])
        }
        try queue.close()

        // When it is opened by this build and people add to it
        let db = try openDatabase(temp)
        _ = try db.addRequest(title: "New request", kind: .barcode, now: Clock.now, createdBy: "ana")
        let anas = try db.commitCapture(CaptureSubmission(kind: .barcode, barcode: Self.ean), now: Clock.now, capturedBy: "ana")

        // Then old rows name nobody, new ones their person, and search still finds the old text
        let requests = try db.requestListing(limit: nil)
        #expect(Set(requests.map { "\($0.title)=\($0.createdBy ?? "-")" }) == ["Old request=-", "New request=ana"])
        #expect(try db.record(id: 1)?.capturedBy == nil)
        #expect(try db.record(id: anas)?.capturedBy == "ana")
        #expect(try db.search("pallet", limit: 10).map(\.id) == [1])
    }

    @Test(arguments: StoreEngine.allCases) func searchFindsRecordsByWhoCapturedThem(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let ana = try db.commit(CaptureSubmission(kind: .note, note: "shelf"), now: Clock.now, capturedBy: "Ana Lopez")
        let ben = try db.commit(CaptureSubmission(kind: .note, note: "shelf"), now: Clock.minutesAgo(1), capturedBy: "ben")

        #expect(try db.search("lopez", limit: 10).map(\.id) == [ana])
        #expect(try db.search("ana", limit: 10).map(\.id) == [ana])
        #expect(try db.search("be", limit: 10).map(\.id) == [ben])
        #expect(try db.search("shelf", limit: 10).map(\.id) == [ana, ben])
    }

    @Test(arguments: StoreEngine.allCases) func historyPagesSayWhenMoreThanOnePersonIsInTheData(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        func page() throws -> HistoryPage { try db.historyPage(HistoryPageRequest(start: 0, count: 10)) }

        _ = try db.commit(CaptureSubmission(kind: .note, note: "no name"), now: Clock.now)
        #expect(try page().hasSeveralPeople == false)
        _ = try db.commit(CaptureSubmission(kind: .note, note: "a"), now: Clock.now, capturedBy: "ana")
        #expect(try page().hasSeveralPeople == false, "one person and records without a name is still one person")
        let ben = try db.commit(CaptureSubmission(kind: .note, note: "b"), now: Clock.now, capturedBy: "ben")
        #expect(try page().hasSeveralPeople == true)
        #expect(try page().rows.first { $0.id == ben }?.capturedBy == "ben")
        #expect(try db.recordDetail(id: ben)?.record.capturedBy == "ben")
    }

    @Test func whetherSeveralPeopleCapturedIsReadFromTheIndex() throws {
        let temp = try TemporaryDirectory()
        _ = try openDatabase(temp)
        let plan = try rawQueue(temp.databaseURL).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + SQLiteNames.of(HistoryRows.people.text)).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.filter { $0.contains("capture") }.allSatisfy { $0.contains("COVERING INDEX capture_on_capturedBy") }, "\(plan)")
        #expect(plan.filter { $0.contains("capture") }.count == 2)
    }

    @Test(arguments: StoreEngine.allCases) func exportsAndImportsCarryThePerson(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let ids = try db.importRequests([NewRequest(title: "Count boxes", kind: .note)], now: Clock.now, createdBy: "ben")
        _ = try db.commit(CaptureSubmission(kind: .note, note: "12 boxes", requestID: ids.first), now: Clock.now, capturedBy: "ana")
        var exported: [ExportedRecord] = []
        try db.exportHistory(ids: 1...Int64.max, start: { _ in }) { exported.append($0) }
        #expect(exported.map(\.capturedBy) == ["ana"])
        #expect(exported.first?.request?.createdBy == "ben")
        // An import of what `inbox list --json` printed (with createdBy) is accepted.
        let json = #"{"version":1,"requests":[{"id":1,"title":"T","body":"","kind":"note","status":"pending","createdAt":"x","doneAt":null,"createdBy":"ben"}]}"#
        #expect(RequestImport.parse(Data(json.utf8)) == .requests([NewRequest(title: "T", kind: .note)]))
    }

    @Test(arguments: StoreEngine.allCases) func theSchemaRefusesEmptyOrOverlongNames(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        #expect(throws: StorageError.self) {
            try db.commit(CaptureSubmission(kind: .note, note: "x"), now: Clock.now, capturedBy: "")
        }
        #expect(throws: StorageError.self) {
            try db.add(title: "T", kind: .note, now: Clock.now, createdBy: String(repeating: "n", count: 65))
        }
    }
}
