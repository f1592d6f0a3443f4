import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import TabShell

/// A real SQLite store whose calls can be held, as a silent database server holds them: while
/// `hold()` is on, every call but the change counter waits (on the session's storage queue) until
/// `release()`; `failNextCommit` makes the next Done fail with a server's sentence instead of
/// reaching the database. Nothing is mocked: every call that goes through is the store's own.
final class HeldStore: RecordStore, @unchecked Sendable {
    let base: AppDatabase
    private let gate = NSCondition()
    private var isHeld = false
    private var waiting = 0
    private var failure: StorageError?
    /// The change counter is held too (off by default: the tests hold the other calls).
    private var holdsChangeCounter = false

    init(_ base: AppDatabase) { self.base = base }

    /// Calls from now on wait until `release()`; with `changeCounter`, its reads too.
    func hold(changeCounter: Bool = false) {
        gate.lock()
        isHeld = true
        holdsChangeCounter = changeCounter
        gate.unlock()
    }

    /// Lets every waiting call (and those after it) through.
    func release() {
        gate.lock()
        isHeld = false
        gate.broadcast()
        gate.unlock()
    }

    /// Calls waiting at the gate now.
    var waitingCalls: Int {
        gate.lock()
        defer { gate.unlock() }
        return waiting
    }

    /// The next commit (once let through) fails with `error` and writes nothing.
    func failNextCommit(with error: StorageError) {
        gate.lock()
        failure = error
        gate.unlock()
    }

    private func pass() {
        gate.lock()
        waiting += 1
        while isHeld { gate.wait() }
        waiting -= 1
        gate.unlock()
    }

    private func takeFailure() -> StorageError? {
        gate.lock()
        defer {
            failure = nil
            gate.unlock()
        }
        return failure
    }

    var displayName: String { base.displayName }
    var media: MediaStore { base.media }
    func isStagingCommitted(_ stagingID: String) throws(StorageError) -> Bool { try base.isStagingCommitted(stagingID) }

    func settings() throws(StorageError) -> Settings {
        pass()
        return try base.settings()
    }
    func saveSettings(_ settings: Settings) throws(StorageError) {
        pass()
        try base.saveSettings(settings)
    }
    func addRequest(title: String, body: String, kind: CaptureKind, now: Date, createdBy: String?, requester: String?) throws(StorageError) -> Int64 {
        pass()
        return try base.addRequest(title: title, body: body, kind: kind, now: now, createdBy: createdBy, requester: requester)
    }
    func importRequests(_ requests: [NewRequest], now: Date, createdBy: String?) throws(StorageError) -> [Int64] {
        pass()
        return try base.importRequests(requests, now: now, createdBy: createdBy)
    }
    func inbox(limit: Int) throws(StorageError) -> InboxSnapshot {
        pass()
        return try base.inbox(limit: limit)
    }
    func requestListing(limit: Int?) throws(StorageError) -> [InboxRequest] {
        pass()
        return try base.requestListing(limit: limit)
    }
    func historyPage(_ request: HistoryPageRequest) throws(StorageError) -> HistoryPage {
        pass()
        return try base.historyPage(request)
    }
    func search(_ query: String, limit: Int) throws(StorageError) -> [HistoryRow] {
        pass()
        return try base.search(query, limit: limit)
    }
    func recordDetail(id: Int64) throws(StorageError) -> RecordDetail? {
        pass()
        return try base.recordDetail(id: id)
    }
    func deleteRecord(id: Int64) throws(StorageError) -> Bool {
        pass()
        return try base.deleteRecord(id: id)
    }
    func deleteAllRecords() throws(StorageError) -> Int {
        pass()
        return try base.deleteAllRecords()
    }
    func product(for barcode: Barcode) throws(StorageError) -> Product? {
        pass()
        return try base.product(for: barcode)
    }
    func commitCapture(_ submission: CaptureSubmission, staging: StagingSession?, now: Date, capturedBy: String?) throws(StorageError) -> Int64 {
        pass()
        if let failure = takeFailure() { throw failure }
        return try base.commitCapture(submission, staging: staging, now: now, capturedBy: capturedBy)
    }
    func exportHistory(ids: ClosedRange<Int64>, start: (Int) throws -> Void, _ body: (ExportedRecord) throws -> Void) throws {
        pass()
        try base.exportHistory(ids: ids, start: start, body)
    }
    func historyListing(limit: Int?, _ body: (ExportedRecord) throws -> Void) throws {
        pass()
        try base.historyListing(limit: limit, body)
    }
    func lastRecordID() throws(StorageError) -> Int64? {
        pass()
        return try base.lastRecordID()
    }
    func reopenRequest(id: Int64) throws(StorageError) -> RequestChange {
        pass()
        return try base.reopenRequest(id: id)
    }
    func removeRequest(id: Int64) throws(StorageError) -> RequestChange {
        pass()
        return try base.removeRequest(id: id)
    }
    func importMatches(_ history: ImportedHistory) throws(StorageError) -> ImportMatches {
        pass()
        return try base.importMatches(history)
    }
    func importHistory(_ history: ImportedHistory) throws(StorageError) -> HistoryImportReport {
        pass()
        return try base.importHistory(history)
    }
    func importCatalog(from descriptor: Int32) throws(CatalogImportError) -> CatalogImportReport {
        pass()
        return try base.importCatalog(from: descriptor)
    }
    func catalogListing(limit: Int?, search: String?, _ body: (String, Product) throws -> Void) throws {
        pass()
        try base.catalogListing(limit: limit, search: search, body)
    }
    func clearCatalog() throws(StorageError) -> Int {
        pass()
        return try base.clearCatalog()
    }
    func photoFile(storedName: String) throws(StorageError) -> URL {
        pass()
        return try base.photoFile(storedName: storedName)
    }
    /// Held only when `hold(changeCounter: true)` says so.
    func externalChangeCounter() throws(StorageError) -> Int64 {
        gate.lock()
        let holds = holdsChangeCounter
        gate.unlock()
        if holds { pass() }
        return try base.externalChangeCounter()
    }

    func changeHints(_ hint: @escaping @Sendable () -> Void) -> ChangeHints? {
        base.changeHints(hint)
    }

    func request(id: Int64) throws(StorageError) -> InboxRequest? {
        pass()
        return try base.request(id: id)
    }

    func answerID(toRequest id: Int64) throws(StorageError) -> Int64? {
        pass()
        return try base.answerID(toRequest: id)
    }
}

extension RuntimeHarness {
    /// A session whose store is a `HeldStore` over the folder's database (holding its calls
    /// from the start when `held`), its storage calls on a queue of its own as in the app.
    static func onHeldStore(held: Bool = false) throws -> (RuntimeHarness, HeldStore) {
        var made: HeldStore?
        let harness = try RuntimeHarness(storage: .background) { database in
            let store = HeldStore(database)
            if held { store.hold() }
            made = store
            return store
        }
        guard let store = made else { throw HeldStoreNotMade() }
        return (harness, store)
    }
}

/// The harness did not ask for its store (it always does, in its init).
struct HeldStoreNotMade: Error {}
