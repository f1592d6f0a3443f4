import Domain
import Foundation
import GRDB
import Storage

/// Captures with photos: staging, Done, reading and deleting. The order of the steps is the
/// durability protocol described in docs/durability.md.
extension AppDatabase {
    // MARK: - Done

    /// Done: stores a finished capture, its photos and the answered request's new status, and
    /// returns the capture's id.
    ///
    /// 1. Each photo of `submission` moves from `staging`'s folder into the media folder (a
    ///    rename on one file system), and the media folder is fsynced: the files are durably in
    ///    place before any row names them.
    /// 2. One IMMEDIATE transaction inserts the capture (with the session's id), its `photo` rows
    ///    in order and marks the request done (at `now`; a done request stays done). Its commit
    ///    is the point of no return.
    /// 3. The staging folder is deleted.
    ///
    /// When step 1 or 2 fails, the photos are moved back into the staging folder and the session
    /// stays open, so Done can be retried or the capture closed; whatever cannot be moved back is
    /// an unreferenced file that start-up recovery quarantines. The photos' facts are those
    /// recorded when they were staged; `submission.photos` chooses which and in what order.
    ///
    /// Throws ``StorageError/requestNotFound(id:)`` and writes nothing when the request is gone.
    /// `capturedBy` names who captured it (kept in `capture.capturedBy`, shown in History).
    @discardableResult public func commitCapture(
        _ submission: CaptureSubmission, staging: StagingSession?, now: Date, capturedBy: String? = nil
    ) throws(StorageError) -> Int64 {
        let photos = try RequestLimits.validate(submission, staging: staging)

        // Step 1: files first, durably.
        let moved = try movePhotosIntoMedia(photos, from: staging)

        // Step 2: one transaction for the capture, its photos and the request.
        let captureID: Int64
        do {
            captureID = try write { db in
                try CaptureRows.commit(
                    submission, now: now, stagingID: staging?.stagingID, capturedBy: capturedBy, captureSteps(submission, photos: photos, db),
                    SQLiteStatements(db: db, path: url.path))
            }
        } catch {
            if let staging { moveBack(moved, to: staging) }
            throw error
        }

        // Step 3: the point of no return is behind us; the staging folder is garbage now.
        staging?.discard()
        return captureID
    }

    /// Step 1 of Done (and of `history import`): moves the staged photos into the media folder
    /// and syncs it; returns the ones moved. On failure, those already moved go back to staging.
    func movePhotosIntoMedia(_ photos: [StagedPhoto], from staging: StagingSession?) throws(StorageError) -> [StagedPhoto] {
        guard let staging, !photos.isEmpty else { return [] }
        var moved: [StagedPhoto] = []
        do {
            _ = try media.prepare(media.mediaDirectory)
            for photo in photos {
                if try moveIntoMedia(photo, from: staging) { moved.append(photo) }
            }
            try DurableFiles.syncDirectory(media.mediaDirectory.path)
        } catch {
            moveBack(moved, to: staging)
            throw error
        }
        return moved
    }

    /// SQLite's own steps of a capture's rows (``CaptureRows``), in Done's transaction: a
    /// batch's lines go in before the capture, so its full-text row is written once, with every
    /// code (a line added after its capture rewrites that row: about a millisecond each at a
    /// million records, 2.4 s for a batch of 1,000 codes; docs/performance.md); and a photo row
    /// names its file in the media folder, checked there under the write lock, which recovery's
    /// sweep also holds, so a row is never written for a file that is not there.
    func captureSteps(_ submission: CaptureSubmission, photos: [StagedPhoto], _ db: Database) -> CaptureRows.CaptureSteps {
        let mediaPath = media.mediaDirectory.path
        let path = url.path
        return CaptureRows.CaptureSteps(
            ahead: { () throws(StorageError) -> Int64? in
                guard !submission.lines.isEmpty else { return nil }
                do {
                    // The lines' foreign key is checked at commit (which turns this off again),
                    // when their capture is there; the id is the one AUTOINCREMENT would give,
                    // above every id the table has had.
                    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                    return try Int64.fetchOne(
                        db,
                        sql: """
                            SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'capture'), 0),
                                       coalesce((SELECT max(id) FROM capture), 0)) + 1
                            """) ?? 1
                } catch {
                    throw .operation(error, path: path)
                }
            },
            photos: { captureID throws(StorageError) in
                for (position, photo) in photos.enumerated() {
                    guard let info = DurableFiles.status(mediaPath + "/" + photo.storedName), DurableFiles.isRegularFile(info) else {
                        throw .fileSystem("\(photo.originalName) disappeared from \(mediaPath) before it was committed.")
                    }
                    do {
                        try db.execute(
                            sql: """
                                INSERT INTO photo (captureId, position, storedName, originalName, format, pixelWidth, pixelHeight, byteSize)
                                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                                """,
                            arguments: [
                                captureID, position, photo.storedName, photo.originalName, photo.format.rawValue, photo.pixelWidth,
                                photo.pixelHeight, photo.byteSize,
                            ])
                    } catch {
                        throw .operation(error, path: path)
                    }
                }
            })
    }

    /// Moves one staged photo into the media folder; returns false when an earlier, failed Done
    /// of this session already put it there.
    private func moveIntoMedia(_ photo: StagedPhoto, from staging: StagingSession) throws(StorageError) -> Bool {
        let source = staging.path + "/" + photo.storedName
        let target = media.mediaDirectory.path + "/" + photo.storedName
        if let info = DurableFiles.status(source), DurableFiles.isRegularFile(info) {
            // A fresh modification time keeps the file inside recovery's grace period while it
            // waits, unreferenced, for the transaction (rename keeps the time of the copy).
            _ = utimensat(AT_FDCWD, source, nil, 0)
            guard rename(source, target) == 0 else {
                throw .fileSystem(
                    "Cannot move \(photo.originalName) into \(media.mediaDirectory.path): "
                        + "\(DurableFiles.reason(errno: errno)).")
            }
            return true
        }
        if let info = DurableFiles.status(target), DurableFiles.isRegularFile(info) {
            return false
        }
        throw .fileSystem("\(photo.originalName) is missing from \(staging.path).")
    }

    /// Best effort: returns photos that step 1 moved into the media folder to the staging folder.
    func moveBack(_ photos: [StagedPhoto], to staging: StagingSession) {
        guard !photos.isEmpty else { return }
        for photo in photos {
            _ = rename(media.mediaDirectory.path + "/" + photo.storedName, staging.path + "/" + photo.storedName)
        }
        try? DurableFiles.syncDirectory(staging.path)
    }

    // MARK: - Deleting (Storage's deleteRecord and deleteAllRecords)

    /// Every photo row deleted frees its file.
    public func photoFilesFreed(by storedNames: [String], _ session: any StatementSession) -> [String] {
        storedNames
    }

    public func photoFilesBeforeDeletingAll(_ session: any StatementSession) throws(StorageError) -> [String] {
        try session.all("SELECT stored_name FROM capture_photo") { row throws(StorageError) in try row.text(0) ?? "" }
    }

    /// The committed photo `storedName` in the media folder; a sentence when it is not there (its
    /// record deleted, or the file lost: `doctor` says which).
    public func photoFile(storedName: String) throws(StorageError) -> URL {
        guard MediaStore.isStoredName(storedName) else {
            throw .notAStoredPhoto(storedName)
        }
        let url = media.url(forStoredName: storedName)
        guard let info = DurableFiles.status(url.path), DurableFiles.isRegularFile(info) else {
            throw .fileSystem("The photo \(storedName) is not in the media folder.")
        }
        return url
    }

    /// Unlinks files whose rows are gone; what fails stays for recovery's sweep, which moves
    /// files no row names to the quarantine after the grace period.
    public func removePhotoFiles(_ storedNames: [String]) {
        guard !storedNames.isEmpty else { return }
        let mediaPath = media.mediaDirectory.path
        for name in storedNames where MediaStore.isStoredName(name) {
            _ = unlink(mediaPath + "/" + name)
        }
        try? DurableFiles.syncDirectory(mediaPath)
    }
}
