import Domain
import Foundation

/// What start-up recovery asks of every engine: where this host keeps its folders and whether a
/// staging folder was committed already. Staging is local on every engine.
public protocol StagingLedger {
    /// This host's folders for the store.
    var media: MediaStore { get }
    /// Whether a capture was committed from the staging folder `stagingID`.
    func isStagingCommitted(_ stagingID: String) throws(StorageError) -> Bool
}

/// An engine whose media folder holds the committed photos themselves (SQLite's), so recovery
/// can tell a photo an interrupted Done had moved there from a committed one, and move files no
/// row names to the quarantine. An engine whose media folder is only a cache of photos kept in
/// the database (PostgreSQL's) does not conform: nothing in a cache is moved back or swept.
public protocol MediaSweeping: StagingLedger {
    /// Whether a row names the file `storedName` of the media folder (then it is not moved
    /// back into a staging folder).
    func isPhotoReferenced(_ storedName: String) -> Bool
    /// Moves files of the media folder no row names, older than `graceSeconds`, to the
    /// quarantine.
    func sweepMedia(graceSeconds: TimeInterval, now: Date, report: inout RecoveryReport) throws(StorageError)
}

/// Start-up recovery: what a crash, a kill or a dropped link left in the staging and media
/// folders is offered back, removed or quarantined. Never deletes a file on a guess, and never
/// touches a staging folder whose lock a live process holds.
extension StagingLedger {
    /// Runs at start (and is safe to run at any time, by any number of processes at once).
    ///
    /// For each staging folder whose owner is gone (its lock can be taken):
    /// - committed already (a capture has its id: the crash came after Done's commit) → removed;
    /// - partial copies `.tmp-*` and staged files its `draft.json` does not list → removed;
    /// - listed photos that an interrupted Done had moved into the media folder, with no row
    ///   naming them → moved back into the folder (``MediaSweeping`` engines only);
    /// - a draft with a code, note text or a photo → returned in ``RecoveryReport/drafts``,
    ///   to resume (``resumeDraft(_:)``) or discard (``discardDraft(_:)``); otherwise removed;
    /// - an unreadable `draft.json` → the whole folder is moved to the quarantine.
    ///
    /// Then, where the engine keeps its photos in the media folder (``MediaSweeping``), under
    /// the database's write lock, every regular file in the media folder that no
    /// `photo` row names and that was last modified more than `graceSeconds` before `now` is
    /// moved to `quarantine/<UTC timestamp>/`. The grace period protects a Done in another
    /// process that has moved its files but not yet committed.
    public func recover(graceSeconds: TimeInterval = 3600, now: Date) throws(StorageError) -> RecoveryReport {
        var report = RecoveryReport()
        let stagingPath = media.stagingDirectory.path
        for name in (DurableFiles.entries(of: stagingPath) ?? []).sorted() {
            // Only folders named like the ones we create are ours to judge.
            guard let id = UUID(uuidString: name), name == id.uuidString.lowercased() else { continue }
            let directory = stagingPath + "/" + name
            guard let info = DurableFiles.status(directory), DurableFiles.isDirectory(info),
                case let .acquired(lock) = DirectoryLock.acquire(directory)
            else { continue }
            try recoverStagingDirectory(directory, id: name, lock: lock, now: now, report: &report)
            lock.release()
        }
        try (self as? any MediaSweeping)?.sweepMedia(graceSeconds: graceSeconds, now: now, report: &report)
        return report
    }

    /// Adopts an unfinished capture from ``recover(graceSeconds:now:)``: takes its lock again
    /// and returns a session holding its photos and draft.
    ///
    /// Throws ``StorageError/draftUnavailable`` when another session holds it or it was
    /// resumed and finished, or discarded, meanwhile.
    public func resumeDraft(_ draft: RecoveryReport.Draft) throws(StorageError) -> StagingSession {
        let (id, lock) = try lockDraft(draft)
        var ignored = RecoveryReport()
        guard case let .draft(saved) = StagingSession.readDraft(in: lock.directory),
            let tidy = tidy(lock.directory, draft: saved, restoreFromMedia: false, report: &ignored)
        else {
            lock.release()
            throw .draftUnavailable
        }
        let session = StagingSession(id: id, lock: lock, media: media, draft: tidy)
        if tidy != saved {
            try session.saveDraft(tidy)
        }
        return session
    }

    /// Discards an unfinished capture from ``recover(graceSeconds:now:)``: deletes its staging
    /// folder. The database is not touched.
    ///
    /// Throws ``StorageError/draftUnavailable`` when another session has resumed it.
    public func discardDraft(_ draft: RecoveryReport.Draft) throws(StorageError) {
        let (_, lock) = try lockDraft(draft)
        guard lock.removeDirectory() else {
            throw .fileSystem("Cannot remove \(draft.directory.path).")
        }
    }

    // MARK: - Staging folders

    private func lockDraft(_ draft: RecoveryReport.Draft) throws(StorageError) -> (UUID, DirectoryLock) {
        let name = draft.directory.lastPathComponent
        let directory = media.stagingDirectory.path + "/" + name
        guard let id = UUID(uuidString: name), name == id.uuidString.lowercased(),
            draft.directory.standardizedFileURL.path == directory
        else {
            throw .invalidInput("\(draft.directory.path) is not one of this database's unfinished captures.")
        }
        // Resume and Discard are the user's answer to a draft recovery just found unlocked.
        guard case let .acquired(lock) = DirectoryLock.acquire(directory, grace: DirectoryLock.releaseGrace) else {
            throw .draftUnavailable
        }
        return (id, lock)
    }

    private func recoverStagingDirectory(
        _ directory: String, id: String, lock: DirectoryLock, now: Date, report: inout RecoveryReport
    ) throws(StorageError) {
        if try isStagingCommitted(id) {
            removeStaging(lock, report: &report)
            return
        }
        switch StagingSession.readDraft(in: directory) {
        case .missing:
            report.removedTempFiles += countFiles(in: directory, except: [DirectoryLock.fileName])
            removeStaging(lock, report: &report)
        case .unreadable:
            quarantineStaging(directory, id: id, now: now, report: &report)
        case let .draft(saved):
            let restoredBefore = report.restoredPhotos
            let tidy = tidy(directory, draft: saved, restoreFromMedia: true, report: &report)
            guard let tidy, tidy.hasContent else {
                // Photos put back but no draft to offer: they go with the folder.
                report.restoredPhotos = restoredBefore
                removeStaging(lock, report: &report)
                return
            }
            if tidy != saved, let data = try? JSONEncoder.draft.encode(tidy) {
                try? DurableFiles.writeAtomically(data, to: directory + "/" + StagingSession.draftFileName)
            }
            report.drafts.append(RecoveryReport.Draft(directory: URL(fileURLWithPath: directory, isDirectory: true), draft: tidy))
        }
    }

    /// Removes temporary and unlisted files from an owned staging folder (counted in `report`'s
    /// ``RecoveryReport/removedTempFiles``) and returns the draft with only the photos whose files
    /// are there; with `restoreFromMedia`, a listed photo found in the media folder without a row
    /// is moved back first. Nil when `draft.json` is gone.
    private func tidy(_ directory: String, draft: CaptureDraft, restoreFromMedia: Bool, report: inout RecoveryReport) -> CaptureDraft? {
        var draft = draft
        var restored = 0
        let mediaPath = media.mediaDirectory.path
        draft.photos = draft.photos.filter { photo in
            guard MediaStore.isStoredName(photo.storedName, format: photo.format) else { return false }
            let staged = directory + "/" + photo.storedName
            if let info = DurableFiles.status(staged) { return DurableFiles.isRegularFile(info) }
            guard restoreFromMedia, let sweeping = self as? any MediaSweeping else { return false }
            let committed = mediaPath + "/" + photo.storedName
            guard let info = DurableFiles.status(committed), DurableFiles.isRegularFile(info),
                !sweeping.isPhotoReferenced(photo.storedName), rename(committed, staged) == 0
            else { return false }
            restored += 1
            return true
        }
        report.restoredPhotos += restored
        if restored > 0 {
            try? DurableFiles.syncDirectory(directory)
        }
        let keep = Set(draft.photos.map(\.storedName) + [DirectoryLock.fileName, StagingSession.draftFileName])
        for name in DurableFiles.entries(of: directory) ?? [] where !keep.contains(name) {
            if unlink(directory + "/" + name) == 0 {
                report.removedTempFiles += 1
            } else {
                report.problems.append("Cannot remove \(directory)/\(name): \(DurableFiles.reason(errno: errno)).")
            }
        }
        guard DurableFiles.status(directory + "/" + StagingSession.draftFileName) != nil else { return nil }
        return draft
    }

    private func removeStaging(_ lock: DirectoryLock, report: inout RecoveryReport) {
        if lock.removeDirectory() {
            report.removedStagingDirectories += 1
        } else {
            report.problems.append("Cannot remove the abandoned staging folder \(lock.directory).")
        }
    }

    /// A folder whose `draft.json` cannot be read is not deleted on a guess: it goes to the
    /// quarantine whole (its lock file with it; the lock is released when the caller returns).
    private func quarantineStaging(_ directory: String, id: String, now: Date, report: inout RecoveryReport) {
        let files = countFiles(in: directory, except: [DirectoryLock.fileName])
        do {
            let quarantine = try quarantineFolder(now: now, report: &report)
            guard rename(directory, quarantine + "/staging-" + id) == 0 else {
                report.problems.append(
                    "Cannot move \(directory) to the quarantine: \(DurableFiles.reason(errno: errno)).")
                return
            }
            report.quarantinedFiles += files
            report.problems.append("The unfinished capture in \(directory) could not be read; it was moved to \(quarantine).")
        } catch {
            report.problems.append(error.message)
        }
    }

    private func countFiles(in directory: String, except names: Set<String>) -> Int {
        (DurableFiles.entries(of: directory) ?? []).filter { !names.contains($0) }.count
    }

    /// `quarantine/<UTC timestamp of now>/`, created (0700) on first use by this recovery.
    package func quarantineFolder(now: Date, report: inout RecoveryReport) throws(StorageError) -> String {
        if let existing = report.quarantineDirectory { return existing.path }
        let root = try media.prepare(media.quarantineDirectory)
        let path = root + "/" + Self.quarantineName(now)
        try DurableFiles.makePrivateDirectory(path)
        report.quarantineDirectory = URL(fileURLWithPath: path, isDirectory: true)
        return path
    }

    /// "20250615T103000Z": ISO 8601 basic format, sortable and free of ":".
    static func quarantineName(_ date: Date) -> String {
        var seconds = time_t(floor(date.timeIntervalSince1970))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
