import CaptureMode
import Domain
import Foundation
import GRDB
import SQLiteStorage
import Storage
import TabShell
import TestSupport
import Testing

/// The storage core: the rules both engines enforce, written once in `Storage`, and
/// SQLite's store over an injected writer. These run on an in-memory database (GRDB's
/// `DatabaseQueue()`) wherever the file is not the point.
@Suite("Storage core: rules written once, SQLite in memory")
struct StorageCoreTests {
    /// An `AppDatabase` over an in-memory queue; `url` only places its (unused) media folders.
    private func inMemory(_ folder: TemporaryFolder) throws -> AppDatabase {
        try AppDatabase(writer: DatabaseQueue(), url: folder.url.appendingPathComponent("memory.sqlite"))
    }

    // MARK: - The kinds' CHECK lists

    /// The lists are pinned: a new `CaptureKind` must not change a shipped migration's text
    /// (see `SchemaValues`). If this fails because a kind was added, freeze the old lists in
    /// the migrations as literals and append a migration.
    @Test func theKindListsAreTheShippedOnes() {
        #expect(SchemaValues.captureKinds == "'barcode','photos','product','note','batch'")
        #expect(SchemaValues.requestKinds == "'barcode','photos','product','note'")
        #expect(SchemaValues.quoted([RequestStatus.pending, .done]) == "'pending','done'")
    }

    @Test func aFreshSchemaNamesTheKindsAsTheMigrationsShippedThem() throws {
        let queue = try DatabaseQueue()
        let folder = try TemporaryFolder(prefix: "StorageCore")
        _ = try AppDatabase(writer: queue, url: folder.url.appendingPathComponent("memory.sqlite"))
        let (request, capture) = try queue.read { db in
            (
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'request'") ?? "",
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'capture'") ?? ""
            )
        }
        #expect(request.contains("CHECK (kind IN ('barcode','photos','product','note'))"))
        #expect(capture.contains("CHECK (kind IN ('barcode','photos','product','note','batch'))"))
        // The schema refuses what the list leaves out.
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO request (title, body, kind, status, createdAt) VALUES ('t', '', 'batch', 'pending', 0)")
            }
        }
    }

    // MARK: - An injected writer

    @Test func anInMemoryWriterIsAWholeStoreAndWritesNoFile() throws {
        let folder = try TemporaryFolder(prefix: "StorageCore")
        let store = try inMemory(folder)
        var settings = Settings.default
        settings.autoAdvanceMilliseconds = 1_500
        try store.saveSettings(settings)
        let id = try store.addRequest(title: "  Shelf 4  ", body: "", kind: .barcode, now: Date(), createdBy: nil, requester: "ana")
        let record = try store.commitCapture(
            CaptureSubmission(kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13), requestID: id),
            staging: nil, now: Date(), capturedBy: "bo")

        #expect(try store.settings().autoAdvanceMilliseconds == 1_500)
        #expect(try store.inbox().requests.map(\.title) == ["Shelf 4"])
        #expect(try store.recordDetail(id: record)?.record.barcode?.value == "4006381333931")
        #expect(try store.historyPage(HistoryPageRequest(start: 0, count: 10)).totalCount == 1)
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
    }

    @Test func anInMemoryStoreIsMediaSweepingAndSweepsItsMedia() throws {
        let folder = try TemporaryFolder(prefix: "StorageCore")
        let store: any RecordStore = try inMemory(folder)
        #expect(store is any MediaSweeping)
        // A file no row names, older than the grace period, goes to the quarantine.
        let media = try #require(store as? AppDatabase).media
        try FileManager.default.createDirectory(at: media.mediaDirectory, withIntermediateDirectories: true)
        let stray = media.mediaDirectory.appendingPathComponent("stray.png")
        #expect(FileManager.default.createFile(atPath: stray.path, contents: Data([1, 2, 3])))
        let report = try store.recover(graceSeconds: 0, now: Date().addingTimeInterval(60))
        #expect(report.quarantinedFiles == 1)
        #expect(!FileManager.default.fileExists(atPath: stray.path))
    }

    // MARK: - Limits and sentences, once for both engines

    @Test func bothEnginesShareTheSettingsAndSearchSentences() throws {
        let folder = try TemporaryFolder(prefix: "StorageCore")
        let store = try inMemory(folder)
        var settings = Settings.default
        settings.autoAdvanceMilliseconds = StorageLimits.autoAdvanceRange.upperBound + 1
        #expect(throws: StorageError.invalidInput("Auto-advance must be between 0 and 60000 milliseconds.")) {
            try store.saveSettings(settings)
        }
        let long = String(repeating: "a", count: StorageLimits.maximumSearchLength + 1)
        #expect(throws: StorageError.invalidInput("A search can have at most 1000 characters.")) {
            try store.search(long, limit: 5)
        }
        #expect(try StorageLimits.searchText("  milk  ") == "milk")
        #expect(StorageLimits.requesterName("  ana ") == .success("ana"))
    }

    @Test func aPageWindowIsClampedToTheRecords() {
        func window(_ start: Int, _ count: Int, total: Int) -> [Int] {
            let (clamped, positions) = HistoryPageRequest(start: start, count: count).window(total: total)
            return [clamped, positions.lowerBound, positions.upperBound]
        }
        #expect(window(0, 10, total: 25) == [0, 0, 10])
        #expect(window(20, 10, total: 25) == [20, 20, 25])
        #expect(window(99, 10, total: 25) == [24, 24, 25])
        #expect(window(-3, 10, total: 25) == [0, 0, 10])
        #expect(window(5, 0, total: 25) == [5, 5, 5])
        #expect(window(5, -1, total: 25) == [5, 5, 5])
        #expect(window(7, 10, total: 0) == [0, 0, 0])
    }
}
