import CaptureMode
import Foundation
import Logging
import Storage
import TabShell

/// Performs the shell's effects against storage and the file system, and turns their results
/// into actions. Knows nothing of the terminal: what only the terminal can do (repaint) is
/// handed back to the caller as a `TerminalRequest`.
final class EffectRunner {
    private let database: any RecordStore
    private let logger: Logger
    private let home: String
    private let mailbox: Mailbox
    private let uploads: UploadFolder?
    let photoStager: PhotoStager
    let previewLoader: PreviewLoader
    /// The on-commit command, when one is set.
    let commitHook: CommitHookRunner?
    /// Drafts start-up recovery found, by staging id, for Resume / Discard.
    private var recoveredDrafts: [String: RecoveryReport.Draft] = [:]

    /// What an effect asks of the runtime beyond actions: a timer, a repaint.
    enum Result {
        case actions([AppAction])
        case schedule(milliseconds: Int, action: AppAction)
        case repaint
    }

    init(
        database: any RecordStore, logger: Logger, home: String, mailbox: Mailbox,
        previewCache: URL?, wake: @escaping @Sendable () -> Void,
        uploads: UploadFolder? = nil, person: String? = nil, onCommit: CommitHook? = nil
    ) {
        self.database = database
        self.logger = logger
        self.home = home
        self.mailbox = mailbox
        self.uploads = uploads
        self.commitHook = onCommit.map { CommitHookRunner(hook: $0, mailbox: mailbox, wake: wake, logger: logger) }
        self.photoStager = PhotoStager(
            database: database, mailbox: mailbox, wake: wake, logger: logger, home: home, uploads: uploads, person: person)
        self.previewLoader = PreviewLoader(
            photoFile: { [database] name throws(StorageError) in try database.photoFile(storedName: name) }, cacheDirectory: previewCache, mailbox: mailbox, wake: wake,
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
        let session = try database.resumeDraft(found)
        photoStager.adopt(session)
        logger.info("draft taken back", metadata: ["staging": "\(found.id)"])
        return session.photos
    }

    func perform(_ effect: AppEffect, maximumPhotoBytes: Int64, now: Date) -> Result {
        switch effect {
        case let .loadInbox(limit):
            return storage { [.inboxLoaded(try $0.inbox(limit: limit))] }
        case let .loadHistory(request):
            return storage { [.historyLoaded(try $0.historyPage(request))] }
        case let .lookUpProduct(barcode):
            // One b-tree lookup on the catalog's key: well under a millisecond, so it is done here.
            return storage { [.capture(.productLookedUp(barcode, try $0.product(for: barcode)))] }
        case let .commitCapture(submission):
            do {
                let id = try photoStager.commit(submission, now: now)
                logger.info("capture committed", metadata: ["id": "\(id)", "kind": "\(submission.kind.rawValue)"])
                commitHook?.run(recordID: id)
                return .actions([.captureCommitted(recordID: id, submission: submission)])
            } catch {
                logger.error("commit failed: \(error.message)")
                return .actions([.captureCommitFailed(error.message)])
            }
        case let .saveSettings(settings):
            return storage {
                try $0.saveSettings(settings)
                return []
            }
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
            guard let draft = recoveredDrafts[id] else { return .actions([.draftDropped(id)]) }
            do {
                photoStager.adopt(try database.resumeDraft(draft))
                logger.info("draft resumed", metadata: ["staging": "\(id)"])
                return .actions([.draftResumed(id)])
            } catch {
                return .actions([.draftDropped(id), .storageFailed(error.message)])
            }
        case let .discardDraft(id):
            if let draft = recoveredDrafts[id] {
                do { try database.discardDraft(draft) } catch { logger.warning("discarding a draft: \(error.message)") }
                logger.info("draft discarded", metadata: ["staging": "\(id)"])
            }
            return .actions([.draftDropped(id)])
        case let .completePath(text):
            if let uploads { return .actions([.capture(UploadCompleter(uploads: uploads).complete(text))]) }
            return .actions([.capture(PathCompleter(home: home).complete(text))])
        case let .loadRecordDetail(id):
            return storage { [.recordDetailLoaded(id: id, detail: try $0.recordDetail(id: id))] }
        case let .deleteRecord(id):
            return storage { db in
                _ = try db.deleteRecord(id: id)
                logger.info("record deleted", metadata: ["id": "\(id)"])
                return [.recordDeleted(id)]
            }
        case .deleteAllRecords:
            return storage { db in
                let count = try db.deleteAllRecords()
                logger.info("all records deleted", metadata: ["count": "\(count)"])
                return [.allRecordsDeleted(count: count)]
            }
        case let .search(query, limit):
            return storage { [.searchResultsLoaded(query: query, rows: try $0.search(query, limit: limit))] }
        case let .loadPreview(request, ticket):
            previewLoader.load(request, ticket: ticket, staging: photoStager.currentSession?.directory)
            return .actions([])
        case let .cancelPreview(ticket):
            previewLoader.cancel(ticket: ticket)
            return .actions([])
        case .redraw:
            return .repaint
        case .quit:
            return .actions([])
        }
    }

    /// Runs a storage call, turning its error into a status-line message instead of a crash.
    private func storage(_ body: (any RecordStore) throws -> [AppAction]) -> Result {
        do {
            return .actions(try body(database))
        } catch {
            let message = (error as? StorageError)?.message ?? "\(error)"
            logger.error("storage: \(message)")
            return .actions([.storageFailed(message)])
        }
    }

    /// The database's change counter, or nil (logged) when it cannot be read.
    func externalChangeCounter() throws(StorageError) -> Int64 {
        try database.externalChangeCounter()
    }
}
