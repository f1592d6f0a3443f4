import Domain
import Foundation
import Testing

@testable import Storage

/// `history export` and `history list` on both engines read a page at a time, all pages on one
/// snapshot: the count the export says first is the number of records it hands on, whatever is
/// committed or deleted meanwhile, and no record is handed on twice or left out at a page's edge.
@Suite("Export and listing on one snapshot")
struct ExportSnapshotTests {
    /// More records than two pages hold, created out of id order (History lists by time), every
    /// 97th a batch whose lines must stay with it.
    static let recordCount = 1_201

    static func seed(_ store: any RecordStore) throws {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let records = (0..<recordCount).map { index in
            // Times go round in 7 steps, so History's order is not the ids' order.
            let createdAt = start.addingTimeInterval(Double((index * 3) % 7) * 60 + Double(index))
            guard index % 97 == 0 else { return ImportedRecord(kind: .note, createdAt: createdAt, note: "note \(index)") }
            let lines = [
                BatchLine(barcode: Barcode(value: "4006381333931", symbology: .ean13), quantity: index + 1),
                BatchLine(barcode: Barcode(value: "batch \(index)", symbology: .freeText), quantity: 1),
            ]
            return ImportedRecord(kind: .batch, createdAt: createdAt, source: .scanner, lines: lines)
        }
        #expect(try store.importHistory(ImportedHistory(records: records)).recordIDs.count == recordCount)
    }

    @Test(arguments: StoreEngine.allCases) func anExportHandsOnTheRecordsItCountedWhateverChangesMeanwhile(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let store = try temp.store(engine)
        try Self.seed(store)
        var counted = 0
        var handed: [ExportedRecord] = []
        var added: Int64 = 0
        try store.exportHistory(
            ids: 1...Int64.max,
            start: { count in
                counted = count
                // Another session deletes a record of the last page and commits a new one.
                #expect(try store.deleteRecord(id: Int64(Self.recordCount) - 5))
                added = try store.commit(CaptureSubmission(kind: .note, note: "committed meanwhile"), now: Date())
            }
        ) { handed.append($0) }
        #expect(counted == Self.recordCount)
        #expect(handed.map(\.id) == Array(1...Int64(Self.recordCount)), "each record once, in id order, as the snapshot held them")
        #expect(added > Int64(Self.recordCount))
        for record in handed where record.kind == .batch {
            let index = Int(record.id) - 1
            #expect(record.lines.map(\.quantity) == [index + 1, 1], "record \(record.id)'s lines")
            #expect(record.lines.last?.barcode.value == "batch \(index)")
        }
        // The next export sees both changes.
        var after: [Int64] = []
        try store.exportHistory(ids: 1...Int64.max, start: { #expect($0 == Self.recordCount) }) { after.append($0.id) }
        #expect(after.count == Self.recordCount)
        #expect(!after.contains(Int64(Self.recordCount) - 5) && after.last == added)
    }

    @Test(arguments: StoreEngine.allCases) func aRangeOfIdsIsExportedWhole(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let store = try temp.store(engine)
        try Self.seed(store)
        for range: ClosedRange<Int64> in [1...1, 499...1_002, 1_200...Int64.max, 5_000...6_000] {
            var counted = -1
            var ids: [Int64] = []
            try store.exportHistory(ids: range, start: { counted = $0 }) { ids.append($0.id) }
            let expected = (1...Int64(Self.recordCount)).filter { range.contains($0) }
            #expect(ids == expected, "\(range)")
            #expect(counted == ids.count, "\(range)")
        }
    }

    @Test(arguments: StoreEngine.allCases) func theListingIsHistorysOrderAcrossPages(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let store = try temp.store(engine)
        try Self.seed(store)
        var all: [ExportedRecord] = []
        try store.historyListing(limit: nil) { all.append($0) }
        let expected = all.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.map(\.id)
        #expect(all.count == Self.recordCount)
        #expect(all.map(\.id) == expected)
        #expect(Set(all.map(\.id)).count == Self.recordCount)
        for record in all where record.kind == .batch {
            #expect(record.lines.count == 2 && record.batchScans == Int(record.id) + 1, "record \(record.id)")
        }
        var first: [Int64] = []
        try store.historyListing(limit: 700) { first.append($0.id) }
        #expect(first == Array(expected.prefix(700)))
        var none = 0
        try store.historyListing(limit: 0) { _ in none += 1 }
        #expect(none == 0)
    }

    struct Refused: Error, Equatable {}

    @Test(arguments: StoreEngine.allCases) func theCallersErrorComesBackAsItWas(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let store = try temp.store(engine)
        try Self.seed(store)
        var seen = 0
        #expect(throws: Refused()) {
            try store.exportHistory(ids: 1...Int64.max, start: { _ in }) { _ in
                seen += 1
                if seen == 600 { throw Refused() }
            }
        }
        #expect(seen == 600, "nothing more is handed on once the caller stopped")
        #expect(throws: Refused()) { try store.exportHistory(ids: 1...Int64.max, start: { _ in throw Refused() }) { _ in } }
        #expect(throws: Refused()) { try store.historyListing(limit: nil) { _ in throw Refused() } }
        // The store is fine afterwards.
        var count = 0
        try store.historyListing(limit: 3) { _ in count += 1 }
        #expect(count == 3)
    }
}
