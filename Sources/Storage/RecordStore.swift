import Domain
import Foundation

/// tabshell's storage, whatever the engine: SQLite (`AppDatabase` in SQLiteStorage, the embedded default) or
/// PostgreSQL (`PostgresStore`, for a team on several hosts). The app, the commands and the
/// tests that run on both engines hold a `RecordStore` and never ask which one it is.
///
/// Every call is synchronous and fails with a ``StorageError`` whose message is one sentence
/// naming the store. Staging is local on every engine (``StagingLedger``): photos are copied
/// into this host's folder the moment they are chosen, and go into the store on Done.
public protocol RecordStore: AnyObject, Sendable, StagingLedger {
    /// Names the store in sentences: the file's path, or `postgres://user@host:port/database`
    /// (never with a password).
    var displayName: String { get }

    // MARK: Settings
    func settings() throws(StorageError) -> Settings
    func saveSettings(_ settings: Settings) throws(StorageError)

    // MARK: Inbox
    /// Adds a pending request and returns its id (title trimmed; ``RequestLimits`` checked).
    func addRequest(
        title: String, body: String, kind: CaptureKind, now: Date, createdBy: String?, requester: String?
    ) throws(StorageError) -> Int64
    /// Adds every request as pending, in one transaction: all or nothing.
    func importRequests(_ requests: [NewRequest], now: Date, createdBy: String?) throws(StorageError) -> [Int64]
    /// Up to `limit` requests, pending first and then done, newest first within each group.
    func inbox(limit: Int) throws(StorageError) -> InboxSnapshot
    /// Requests for `tabshell inbox list`: every one when `limit` is nil.
    func requestListing(limit: Int?) throws(StorageError) -> [InboxRequest]
    /// Makes a done request pending again (`inbox reopen`); the records that answered it keep
    /// naming it.
    func reopenRequest(id: Int64) throws(StorageError) -> RequestChange
    /// Deletes a request (`inbox remove`); the records that answered it stay, answering nothing.
    func removeRequest(id: Int64) throws(StorageError) -> RequestChange

    // MARK: History
    func historyPage(_ request: HistoryPageRequest) throws(StorageError) -> HistoryPage
    func search(_ query: String, limit: Int) throws(StorageError) -> [HistoryRow]
    func recordDetail(id: Int64) throws(StorageError) -> RecordDetail?
    /// Deletes a record and its photos; the request it answered is pending again when no other
    /// record answers it. False when there is no such record.
    @discardableResult func deleteRecord(id: Int64) throws(StorageError) -> Bool
    /// Deletes every record and photo; the requests they answered are pending again.
    @discardableResult func deleteAllRecords() throws(StorageError) -> Int
    /// What the catalog calls the product with this code, if it has it.
    func product(for barcode: Barcode) throws(StorageError) -> Product?

    // MARK: Capture
    /// Done: the capture, its photos (from `staging`) and the request's new status in one
    /// transaction; the capture's id.
    @discardableResult func commitCapture(_ submission: CaptureSubmission, staging: StagingSession?, now: Date, capturedBy: String?)
        throws(StorageError) -> Int64

    // MARK: Export
    /// Every committed record whose id is in `ids`, with its request and photos, in id order
    /// (the order they were committed); `start` first with how many there are. An error thrown
    /// by `start` or `body` comes back as it is.
    func exportHistory(ids: ClosedRange<Int64>, start: (_ recordCount: Int) throws -> Void, _ body: (ExportedRecord) throws -> Void)
        throws
    /// History for `tabshell history list`: newest first, at most `limit` records (every one when
    /// nil), without their photos (`row.photoCount` counts them).
    func historyListing(limit: Int?, _ body: (ExportedRecord) throws -> Void) throws
    /// The newest record's id, or nil when there is none.
    func lastRecordID() throws(StorageError) -> Int64?
    /// Which of an import's records and requests the store already holds, by uid or by content
    /// (``ImportedHistory/matches(in:)``): what `history import --dry-run` reports, and the
    /// records whose photos need not be copied in.
    func importMatches(_ history: ImportedHistory) throws(StorageError) -> ImportMatches
    /// `history import`: adds the requests the new records answer (as they were, each once: one
    /// the store holds is linked, not copied) and then the records the store does not hold yet
    /// (each through Done's own rows, keeping its time, who captured it, its product and its
    /// uid), in one transaction, all or nothing; the staging folders holding their photos are
    /// gone afterwards. The new records' ids, in order, and what was skipped.
    func importHistory(_ history: ImportedHistory) throws(StorageError) -> HistoryImportReport

    // MARK: The product catalog
    /// Imports a delimited file's products in one transaction, all or nothing (CatalogFile).
    func importCatalog(from descriptor: Int32) throws(CatalogImportError) -> CatalogImportReport
    /// The catalog by code, names or brands containing `search` when given, at most `limit`.
    func catalogListing(limit: Int?, search: String?, _ body: (String, Product) throws -> Void) throws
    /// Deletes every product; how many there were. Records keep their names.
    func clearCatalog() throws(StorageError) -> Int

    // MARK: Photos and changes
    /// A committed photo as a file on this host, for previews: the media folder's file, or a
    /// copy in this host's size-capped cache of the photos it has shown.
    func photoFile(storedName: String) throws(StorageError) -> URL
    /// A counter that moves when another session or host commits (never for this process's
    /// own commits): cheap enough to read several times a second.
    func externalChangeCounter() throws(StorageError) -> Int64
    /// Calls `hint` (on a thread of the store's) soon after another session may have committed,
    /// so the change counter is read then instead of at the next poll; nil when the engine
    /// has no such news. Hints stop when the result is released.
    func changeHints(_ hint: @escaping @Sendable () -> Void) -> ChangeHints?

    // MARK: Answers (what an agent that asked waits for)
    /// The request with this id, or nil when there is none.
    func request(id: Int64) throws(StorageError) -> InboxRequest?
    /// The newest record that answers the request `id`, or nil when none does.
    func answerID(toRequest id: Int64) throws(StorageError) -> Int64?
}

extension RecordStore {
    /// The Inbox as the app reads it at start: the first page of requests.
    public func inbox() throws(StorageError) -> InboxSnapshot {
        try inbox(limit: InboxSnapshot.pageSize)
    }

    /// One record as the export writes it (the on-commit command's input), nil when it is gone.
    public func exportedRecord(id: Int64) throws -> ExportedRecord? {
        var found: ExportedRecord?
        try exportHistory(ids: id...id, start: { _ in }) { found = $0 }
        return found
    }

    /// Starts the files of a new capture: a private folder `staging/<uuid>/` on this host,
    /// locked by the returned session until it is committed, discarded or closed.
    public func beginStaging() throws(StorageError) -> StagingSession {
        try StagingSession.begin(in: media)
    }
}

/// The limits every engine checks before it writes, so both refuse the same input with the same
/// sentence.
public enum RequestLimits {
    /// Checks a new request's title, body and requester; returns the trimmed title and the
    /// requester as stored.
    public static func validate(title: String, body: String, requester: String?) throws(StorageError) -> (
        title: String, requester: String?
    ) {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else {
            throw .invalidInput("A request needs a title.")
        }
        guard title.count <= StorageLimits.maximumTitleLength else {
            throw .invalidInput("A request title can have at most \(StorageLimits.maximumTitleLength) characters.")
        }
        guard body.count <= StorageLimits.maximumBodyLength else {
            throw .invalidInput("A request body can have at most \(StorageLimits.maximumBodyLength) characters.")
        }
        let requester = try requester.map { name throws(StorageError) in try StorageLimits.requesterName(name).get() }
        return (title, requester)
    }

    /// Checks every request of an import before anything is written.
    public static func validate(_ requests: [NewRequest]) throws(StorageError) {
        guard requests.count <= ImportLimits.maximumRequests else { throw .invalidInput(RequestImport.tooManyRequests) }
        for request in requests {
            let title = request.title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty, title.count <= StorageLimits.maximumTitleLength, request.body.count <= StorageLimits.maximumBodyLength
            else {
                throw .invalidInput("A request to import has an empty or too long title or body.")
            }
            if let requester = request.requester, case let .failure(problem) = StorageLimits.requesterName(requester) {
                throw problem
            }
        }
    }

    /// Checks a capture before Done writes it — its note, its code, and its photos against the
    /// staging session that holds them — and returns the photos as staged, in the order chosen.
    public static func validate(_ submission: CaptureSubmission, staging: StagingSession?) throws(StorageError) -> [StagedPhoto] {
        try validate(submission)
        if let staging, !staging.isOpen { throw .stagingClosed }
        guard !submission.photos.isEmpty else { return [] }
        guard let staging else {
            throw .invalidInput("Photos can only be committed with the capture that staged them.")
        }
        return try staging.resolve(submission.photos)
    }

    /// Checks a capture's note and code before Done writes it.
    public static func validate(_ submission: CaptureSubmission) throws(StorageError) {
        if let note = submission.note, note.count > StorageLimits.maximumNoteLength {
            throw .invalidInput("A note can have at most \(StorageLimits.maximumNoteLength) characters.")
        }
        if let barcode = submission.barcode, barcode.value.count > BarcodeValidator.maximumLength {
            throw .invalidInput("A code can have at most \(BarcodeValidator.maximumLength) characters.")
        }
    }
}
