import Domain
import Foundation
import GRDB
import Storage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Captures with photos: staging, Done, reading and deleting. The order of the steps is the
/// durability protocol described in docs/durability.md.
extension AppDatabase {
    // MARK: - Done

    /// A code's GS1 fields as rows (searchable and exportable by AI), in the capture's
    /// transaction.
    static func insertScanData(of submission: CaptureSubmission, captureID: Int64, _ db: Database) throws {
        if let barcode = submission.barcode, barcode.value.hasPrefix("(") {
            for element in barcode.reading.elements {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO captureElement (captureId, ai, value) VALUES (?, ?, ?)",
                    arguments: [captureID, element.ai, element.raw]
                )
            }
        }
    }

    /// A batch's lines, in the capture's transaction, before the capture itself: its search row
    /// is then written once, with every code, when the capture goes in. A line added after its
    /// capture rewrites that row, and each rewrite of a full-text row cost about a millisecond at
    /// a million records (2.4 s for a batch of 1,000 codes; docs/performance.md). The lines'
    /// foreign key is checked at commit (`defer_foreign_keys`, which the commit turns off), when
    /// their capture is there. Returns the id the capture must be inserted with.
    static func insertLinesAhead(of submission: CaptureSubmission, _ db: Database) throws -> Int64 {
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        // The id AUTOINCREMENT would give: above every id the table has had.
        let captureID =
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'capture'), 0),
                               coalesce((SELECT max(id) FROM capture), 0)) + 1
                    """) ?? 1
        for (position, line) in submission.lines.enumerated() {
            try db.execute(
                sql: "INSERT INTO captureLine (captureId, position, barcode, symbology, quantity) VALUES (?, ?, ?, ?, ?)",
                arguments: [captureID, position, line.barcode.value, line.barcode.symbology.rawValue, line.quantity]
            )
        }
        return captureID
    }

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
    public func commitCapture(
        _ submission: CaptureSubmission, staging: StagingSession?, now: Date, capturedBy: String? = nil
    ) throws(StorageError) -> Int64 {
        let photos = try RequestLimits.validate(submission, staging: staging)

        // Step 1: files first, durably.
        let moved = try movePhotosIntoMedia(photos, from: staging)

        // Step 2: one transaction for the capture, its photos and the request.
        let captureID: Int64
        do {
            captureID = try write { db in
                let statements = SQLiteStatements(db: db, path: url.path)
                if let requestID = submission.requestID { try RequestRows.markAnswered(id: requestID, now: now, statements) }
                // What the catalog calls the product now is what the record keeps.
                let product = try submission.barcode.flatMap { barcode throws(StorageError) in
                    try CatalogRows.product(key: Product.catalogKey(for: barcode), statements)
                }
                return try insertCapture(
                    submission, photos: photos, createdAt: now, stagingID: staging?.stagingID, capturedBy: capturedBy, product: product,
                    db)
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

    /// Step 2's rows for one capture, inside the caller's transaction: the capture (committed
    /// from `stagingID`, keeping `product` as its name and brand), its photo rows in order and
    /// its GS1 fields and batch lines. The request is the caller's. Returns the capture's id.
    func insertCapture(
        _ submission: CaptureSubmission, photos: [StagedPhoto], createdAt: Date, stagingID: String?, capturedBy: String?,
        product: Product?, uid: String? = nil, _ db: Database
    ) throws -> Int64 {
        let mediaPath = media.mediaDirectory.path
        var record = CaptureRecord(submission: submission, createdAt: createdAt, stagingId: stagingID, capturedBy: capturedBy)
        if let uid { record.uid = uid }
        record.productName = product?.name
        record.productBrand = product?.brand
        if !submission.lines.isEmpty {
            record.id = try Self.insertLinesAhead(of: submission, db)
        }
        try record.insert(db)
        let captureID = db.lastInsertedRowID
        for (position, photo) in photos.enumerated() {
            // Checked under the write lock, which recovery's sweep also holds: a row is
            // never written for a file that is not there.
            guard let info = DurableFiles.status(mediaPath + "/" + photo.storedName),
                DurableFiles.isRegularFile(info)
            else {
                throw StorageError.fileSystem(
                    "\(photo.originalName) disappeared from \(mediaPath) before it was committed.")
            }
            var row = PhotoRecord(captureId: captureID, position: position, photo: photo)
            try row.insert(db)
        }
        try Self.insertScanData(of: submission, captureID: captureID, db)
        return captureID
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

    // MARK: - Reading

    /// The photos of the capture `id`, in the order they were added (empty when there are none
    /// or there is no such capture). For tests: the app reads them with the record's detail.
    func photos(forRecord id: Int64) throws(StorageError) -> [RecordPhoto] {
        try reading { session throws(StorageError) in try photos(ofRecord: id, session) }
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
