import CaptureMode
import Domain
import Foundation
import Logging
import PhotoCodes
import PhotoPreview
import Storage
import Synchronization
import TabShell

/// Owns the staging session of the capture on screen. Photos are copied on a background thread,
/// so a large file never freezes the screen; progress and results come back through the mailbox
/// and wake the loop. Close cancels a running copy and deletes the staging folder; quitting with
/// a capture open keeps the folder as a draft the next start offers back.
final class PhotoStager {
    /// A new staging folder of this host's (never a database call).
    private let beginStaging: () throws(StorageError) -> StagingSession
    private let mailbox: Mailbox
    private let wake: @Sendable () -> Void
    private let logger: Logger
    let home: String
    /// Under `tabshell serve`: photos come only from this folder, by name.
    let uploads: UploadFolder?
    /// Who captures: written into drafts (offered back only to them) and into the record.
    let person: String?
    private var session: StagingSession?
    private var copy: RunningCopy?
    /// Flushes the drafts saved on each change to the disk, off the loop.
    private let draftSyncer = DraftSyncer()

    /// A copy on its way: the flag asks it to stop; the semaphore says it has.
    private final class RunningCopy: Sendable {
        let cancelled = Atomic<Bool>(false)
        /// Set as the copy's thread ends, just before `finished` is signalled.
        let isOver = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
    }

    init(
        beginStaging: @escaping () throws(StorageError) -> StagingSession, mailbox: Mailbox, wake: @escaping @Sendable () -> Void, logger: Logger, home: String,
        uploads: UploadFolder? = nil, person: String? = nil
    ) {
        self.beginStaging = beginStaging
        self.mailbox = mailbox
        self.wake = wake
        self.logger = logger
        self.home = home
        self.uploads = uploads
        self.person = person
    }

    /// The staging session of the capture on screen, if it has one.
    var currentSession: StagingSession? { session }

    /// Adopts a session recovered from a draft.
    func adopt(_ resumed: StagingSession) {
        discard()
        session = resumed
    }

    // MARK: - Effects

    /// Copies a photo into the capture's staging folder in the background. `draft` (what the
    /// capture is: kind, request, phase) is written first, so a kill during or right after the
    /// copy leaves a draft that still knows what the capture was for.
    func stage(_ rawPath: String, maxBytes: Int64, draft: CaptureDraft?, now: Date) -> [AppAction] {
        let path: String
        if let uploads {
            switch uploads.resolve(rawPath) {
            case let .success(found): path = found
            case let .failure(refusal): return [.capture(.photoStagingFailed(refusal.message))]
            }
        } else {
            guard let typed = PathInput.resolve(rawPath, home: home) else {
                return [.capture(.photoStagingFailed("That is not a file path; type one, or drag a file here."))]
            }
            path = typed
        }
        finishCopy()
        // The session, handed to the copy thread. Only one thread uses it at a time: the main
        // thread waits for the copy to finish before it touches the session again.
        let box: Handed<StagingSession>
        do {
            box = Handed(try openSession())
            if var draft {
                draft.updatedAt = now
                draft.owner = person
                try box.value.saveDraft(draft)
            }
        } catch {
            return [.capture(.photoStagingFailed(error.message))]
        }
        let running = RunningCopy()
        copy = running
        let mailbox = self.mailbox, wake = self.wake
        let name = (path as NSString).lastPathComponent
        Thread.detachNewThread { [running] in
            var lastReport = ContinuousClock.now
            let result = Result { () throws(StorageError) in
                try box.value.stage(fileAt: path, originalName: name, maxBytes: maxBytes) { copied, total in
                    // About 20 updates a second at most: progress must not cost more than the copy.
                    if ContinuousClock.now - lastReport > .milliseconds(50) {
                        lastReport = .now
                        mailbox.post(.capture(.photoCopyProgressed(copiedBytes: copied, totalBytes: total)))
                        wake()
                    }
                    return !running.cancelled.load(ordering: .relaxed)
                }
            }
            switch result {
            case let .success(photo):
                // A damaged photo (cut short, undecodable) is refused here, whatever tells it,
                // so Done never saves one without a word.
                if let damage = PhotoIntegrity.damage(of: box.value.fileURL(of: photo)) {
                    try? box.value.remove(photo)
                    mailbox.post(.capture(.photoStagingFailed("\(name) was not added. \(damage.sentence)")))
                    break
                }
                mailbox.post(.capture(.photoStaged(photo)))
                Self.readCodes(on: photo, at: box.value.fileURL(of: photo), mailbox: mailbox, wake: wake)
            case .failure(.cancelled): break
            case let .failure(error): mailbox.post(.capture(.photoStagingFailed(error.message)))
            }
            running.isOver.store(true, ordering: .releasing)
            running.finished.signal()
            wake()
        }
        return []
    }

    /// Looks for barcodes on a staged photo on a thread of its own, so the capture never waits
    /// for it; what it finds comes back as a capture action (nothing, for a photo without one).
    private static func readCodes(on photo: StagedPhoto, at url: URL, mailbox: Mailbox, wake: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            guard let found = try? PhotoCodeReader.codes(in: url), !found.isEmpty else { return }
            mailbox.post(.capture(.photoCodesRead(storedName: photo.storedName, codes: found.map(\.scannerInput))))
            wake()
        }
    }

    func remove(_ photo: StagedPhoto) {
        finishCopy()
        do {
            try session?.remove(photo)
        } catch {
            logger.warning("could not remove a staged photo: \(error.message)")
        }
    }

    /// Close: cancels a running copy, deletes the staging folder; the database is untouched.
    func discard() {
        cancelCopy()
        session?.discard()
        session = nil
        // Results of the cancelled copy must not reach a capture opened later; anything else
        // waiting (a photo preview) still goes to the model.
        for action in mailbox.takeAll() {
            if case .capture = action { continue }
            mailbox.post(action)
        }
    }

    /// Done: the copy under way finishes, and the session goes to the commit (off the loop);
    /// until it comes back (`giveBack`, when the commit fails) the capture has none.
    func takeForCommit() -> StagingSession? {
        finishCopy()
        defer { session = nil }
        return session
    }

    /// A commit that failed gives its session back: the capture keeps its photos for the next Done.
    func giveBack(_ returned: StagingSession?) {
        guard let returned else { return }
        if session == nil {
            session = returned
        } else {
            returned.close()
        }
    }

    /// Keeps what the capture has collected in `draft.json`, so a crash or a dropped link can
    /// offer it back. The model decides when (whenever what it collected changes, typing too);
    /// a copy under way has the folder, and its result brings the next save. The file is in
    /// place when this returns, so a kill right after a key cannot lose it; unless `durably`,
    /// its fsync runs in the background, coalesced (a write is about a tenth of a millisecond,
    /// a durable one about ten times that, and a scanner sends a key every few).
    func saveDraft(_ draft: CaptureDraft, now: Date, durably: Bool = false) {
        // A copy that has ended is reaped first: until the next copy or removal it would
        // otherwise hold every save back (a path typed after a photo was added never reached
        // the draft).
        if let copy, !copy.isOver.load(ordering: .acquiring) { return }
        finishCopy()
        var stamped = draft
        stamped.updatedAt = now
        stamped.owner = person
        do {
            let session = try openSession()
            try session.saveDraft(stamped, durably: durably)
            if !durably { draftSyncer.request(session.draftPath) }
        } catch {
            logger.warning("could not save the draft: \(error.message)")
        }
    }

    /// Leaving the app with a capture open: stop the copy, keep the folder as a draft.
    func closeKeepingDraft() {
        draftSyncer.waitUntilIdle()
        cancelCopy()
        session?.close()
        session = nil
    }

    // MARK: - Helpers

    private func openSession() throws(StorageError) -> StagingSession {
        if let session, session.isOpen { return session }
        let new = try beginStaging()
        session = new
        return new
    }

    private func cancelCopy() {
        copy?.cancelled.store(true, ordering: .relaxed)
        finishCopy()
    }

    /// Waits for the running copy, if any, to end (it checks for cancellation every chunk).
    private func finishCopy() {
        guard let running = copy else { return }
        running.finished.wait()
        copy = nil
    }
}
