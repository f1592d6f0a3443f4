import CaptureMode
import Domain
import Foundation
import Logging
import Storage
import TabShell

/// Performs the shell's effects against storage and the file system, and turns their results
/// into actions. Knows nothing of the terminal: what only the terminal can do (repaint) is
/// handed back to the caller as a `TerminalRequest`.
///
/// Every call to the store goes through `storage` (a serial queue of the session's own in the
/// app), so the loop never waits for the database: the answer comes back as an action after a
/// wake. The change counter has a queue of its own (`changes`), so the change check never
/// queues behind a slow Done, nor a Done behind it.
final class EffectRunner {
    private let database: OpeningStore
    private let storage: StorageQueue
    private let changes: StorageQueue
    private let logger: Logger
    private let mailbox: Mailbox
    let photoStager: PhotoStager
    let previewLoader: PreviewLoader
    /// The on-commit command, when one is set.
    let commitHook: CommitHookRunner?
    /// Drafts start-up recovery found, by staging id, for Resume / Discard.
    private var recoveredDrafts: [String: RecoveryReport.Draft] = [:]

    /// What an effect asks of the runtime beyond actions: a timer, a repaint, a copy to the
    /// terminal's clipboard.
    enum Result {
        case actions([AppAction])
        case schedule(milliseconds: Int, action: AppAction)
        case repaint
        case clipboard(String)
    }

    init(
        database: OpeningStore, logger: Logger, home: String, mailbox: Mailbox,
        previewCache: URL?, wake: @escaping @Sendable () -> Void,
        uploads: UploadFolder? = nil, person: String? = nil, onCommit: CommitHook? = nil, executor: StorageExecutor = .background
    ) {
        self.database = database
        storage = StorageQueue(database: database, executor: executor, label: "tabshell.storage", wake: wake)
        changes = StorageQueue(database: database, executor: executor, label: "tabshell.change-check", wake: wake)
        self.logger = logger
        self.mailbox = mailbox
        self.commitHook = onCommit.map { CommitHookRunner(hook: $0, mailbox: mailbox, wake: wake, logger: logger) }
        // A staging folder is a folder of this host's (no database call): made on the loop.
        self.photoStager = PhotoStager(
            beginStaging: { [database] () throws(StorageError) in try database.store().beginStaging() }, mailbox: mailbox, wake: wake, logger: logger, home: home, uploads: uploads,
            person: person)
        self.previewLoader = PreviewLoader(
            photoFile: { [database] name throws(StorageError) in try database.store().photoFile(storedName: name) }, cacheDirectory: previewCache, mailbox: mailbox, wake: wake,
            logger: logger)
    }

    /// Remembers what recovery found, and hands the model the drafts as values: only drafts
    /// that are this person's, or that name nobody (written before drafts kept their owner).
    func recovered(_ report: RecoveryReport) -> [RecoveredDraft] {
        report.drafts.filter { $0.draft.owner == nil || $0.draft.owner == photoStager.person }.map { found in
            recoveredDrafts[found.id] = found
            return RecoveredDraft(id: found.id, draft: found.draft)
        }
    }

    /// Takes a draft's staging folder back for the capture on screen (a session restored);
    /// returns the photos it holds.
    func adoptDraft(_ found: RecoveryReport.Draft) throws(StorageError) -> [StagedPhoto] {
        let session = try database.store().resumeDraft(found)
        photoStager.adopt(session)
        logger.info("draft taken back", metadata: ["staging": "\(found.id)"])
        return session.photos
    }

    func perform(_ effect: AppEffect, maximumPhotoBytes: Int64, now: Date) -> Result {
        switch effect {
        case let .loadInbox(limit):
            return storage({ db throws(StorageError) in try db.inbox(limit: limit) }) { [.inbox(.loaded($0))] }
        case let .loadHistory(request):
            return storage({ db throws(StorageError) in try db.historyPage(request) }) { [.history(.pageLoaded($0))] }
        case let .lookUpProduct(barcode):
            return storage({ db throws(StorageError) in try db.product(for: barcode) }) { [.capture(.productLookedUp(barcode, $0))] }
        case let .commitCapture(submission):
            return .actions(commit(submission, now: now))
        case let .saveSettings(settings):
            return storage({ db throws(StorageError) in try db.saveSettings(settings) }) { _ in [] }
        case let .saveDraft(draft):
            photoStager.saveDraft(draft, now: now)
            return .actions([])
        case let .schedule(milliseconds, action):
            return .schedule(milliseconds: milliseconds, action: action)
        case let .stagePhoto(path, draft):
            return .actions(photoStager.stage(path, maxBytes: maximumPhotoBytes, draft: draft, now: now))
        case let .unstagePhoto(photo):
            photoStager.remove(photo)
            return .actions([])
        case .discardStaging:
            photoStager.discard()
            return .actions([])
        case let .resumeDraft(id):
            guard let draft = recoveredDrafts[id] else { return .actions([.drafts(.dropped(id))]) }
            do {
                photoStager.adopt(try database.store().resumeDraft(draft))
                logger.info("draft resumed", metadata: ["staging": "\(id)"])
                return .actions([.drafts(.resumed(id))])
            } catch {
                return .actions([.drafts(.dropped(id)), .storageFailed(error.message)])
            }
        case let .discardDraft(id):
            if let draft = recoveredDrafts[id] {
                do { try database.store().discardDraft(draft) } catch { logger.warning("discarding a draft: \(error.message)") }
                logger.info("draft discarded", metadata: ["staging": "\(id)"])
            }
            return .actions([.drafts(.dropped(id))])
        case let .completePath(text):
            // The field's rules are the stager's: under serve, only the person's uploads.
            if let uploads = photoStager.uploads { return .actions([.capture(UploadCompleter(uploads: uploads).complete(text))]) }
            return .actions([.capture(PathCompleter(home: photoStager.home).complete(text))])
        case let .loadRecordDetail(id):
            return storage({ db throws(StorageError) in try db.recordDetail(id: id) }) { [.history(.detailLoaded(id: id, detail: $0))] }
        case let .deleteRecord(id):
            return storage({ db throws(StorageError) in try db.deleteRecord(id: id) }) { [logger] _ in
                logger.info("record deleted", metadata: ["id": "\(id)"])
                // The request it answered may be pending again.
                return [.history(.recordDeleted(id)), .inbox(.requestsChanged)]
            }
        case .deleteAllRecords:
            return storage({ db throws(StorageError) in try db.deleteAllRecords() }) { [logger] count in
                logger.info("all records deleted", metadata: ["count": "\(count)"])
                return [.history(.allRecordsDeleted(count: count)), .inbox(.requestsChanged)]
            }
        case let .reopenRequest(id):
            return storage({ db throws(StorageError) in try db.reopenRequest(id: id) }) { [logger] change in
                logger.info("request reopened", metadata: ["id": "\(id)"])
                return [.inbox(.requestChanged(message: change.sentence(), succeeded: change.succeeded))]
            }
        case let .removeRequest(id):
            return storage({ db throws(StorageError) in try db.removeRequest(id: id) }) { [logger] change in
                logger.info("request removed", metadata: ["id": "\(id)"])
                return [.inbox(.requestChanged(message: change.sentence(), succeeded: change.succeeded))]
            }
        case let .search(query, limit):
            return storage({ db throws(StorageError) in try db.search(query, limit: limit) }) {
                [.search(.resultsLoaded(query: query, rows: $0))]
            }
        case let .loadPreview(request, ticket):
            previewLoader.load(request, ticket: ticket, staging: photoStager.currentSession?.directory)
            return .actions([])
        case let .cancelPreview(ticket):
            previewLoader.cancel(ticket: ticket)
            return .actions([])
        case .redraw:
            return .repaint
        case let .copyToClipboard(text):
            return .clipboard(text)
        case let .loadExportLine(id):
            return storage(
                { db throws(StorageError) in
                    do { return try db.exportedRecord(id: id).map(JSONText.record) } catch let error as StorageError { throw error } catch {
                        throw StorageError.sql(String(describing: error))
                    }
                }
            ) { [.history(.exportLineLoaded(id: id, line: $0))] }
        case .quit:
            return .actions([])
        }
    }

    /// Runs a storage call on the session's storage queue; its answer becomes `success`'s
    /// actions, its error a status-line message instead of a crash.
    private func storage<T>(
        _ work: @escaping @Sendable (any RecordStore) throws(StorageError) -> T, success: @escaping (T) -> [AppAction]
    ) -> Result {
        let logger = self.logger
        return .actions(
            storage.run(work) { outcome in
                switch outcome {
                case let .success(value):
                    return success(value)
                case let .failure(error):
                    logger.error("storage: \(error.message)")
                    return [.storageFailed(error.message)]
                }
            })
    }

    /// Done: the staging folder goes with the call (the copy under way finished first); the
    /// session is spent when the commit lands, and given back to the capture when it fails,
    /// so a second Done sends the same photos.
    private func commit(_ submission: CaptureSubmission, now: Date) -> [AppAction] {
        let staging = Handed(photoStager.takeForCommit())
        let person = photoStager.person
        return storage.run({ db throws(StorageError) in
            try db.commitCapture(submission, staging: staging.value, now: now, capturedBy: person)
        }) { [logger, commitHook, photoStager] outcome in
            switch outcome {
            case let .success(id):
                logger.info("capture committed", metadata: ["id": "\(id)", "kind": "\(submission.kind.rawValue)"])
                commitHook?.run(recordID: id)
                return [.captureCommitted(recordID: id, submission: submission)]
            case let .failure(error):
                photoStager.giveBack(staging.value)
                logger.error("commit failed: \(error.message)")
                return [.capture(.commitFailed(error.message))]
            }
        }
    }

    /// The store's news of other processes' commits, `hint` called on a thread of the store's
    /// (not a round trip: a watch of its own, made once).
    func changeHints(_ hint: @escaping @Sendable () -> Void) -> ChangeHints? {
        database.opened?.changeHints(hint)
    }

    /// What the store says when the session opens it: its settings and what recovery found.
    struct Opened {
        let settings: Settings
        let recovery: Swift.Result<RecoveryReport?, StorageError>
        /// The change counter before anything is read: a commit elsewhere after it, however
        /// soon, moves it, so the first reads are never taken as the baseline of a change they missed.
        let changeCounter: Int64?
    }

    /// Opens the store off the loop (the session's first storage call), reads its settings and
    /// runs the recovery sweep; `then` gets the outcome on the main thread.
    func openStore(now: Date, then: @escaping (Swift.Result<Opened, StorageError>) -> [AppAction]) -> [AppAction] {
        storage.open(
            { db throws(StorageError) in
                let changeCounter = try db.externalChangeCounter()
                let settings = try db.settings()
                return Opened(
                    settings: settings, recovery: Swift.Result { () throws(StorageError) in try db.recover(now: now) },
                    changeCounter: changeCounter)
            }, then: then)
    }

    /// Reads the database's change counter off the loop; `then` gets the outcome on the main
    /// thread (at once when inline).
    func readChangeCounter(then: @escaping (Swift.Result<Int64, StorageError>) -> [AppAction]) -> [AppAction] {
        changes.run({ db throws(StorageError) in try db.externalChangeCounter() }, then: then)
    }

    /// The actions of storage calls that have answered since the last time (main thread).
    func takeFinishedStorageWork() -> [AppAction] {
        storage.takeFinished() + changes.takeFinished()
    }

    /// Storage calls queued or running (not the change check).
    var storageCallsPending: Int { storage.pendingCount }

    /// Waits up to `limit` for the storage calls already queued; true when none is left.
    @discardableResult
    func drainStorage(within limit: Duration) -> Bool {
        storage.drain(within: limit)
    }
}
