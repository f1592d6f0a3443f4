import Domain
import Foundation
import PostgresNIO
import Storage

/// What Done (`commitCapture`) and `history import` do on PostgreSQL beside Storage's
/// ``CaptureRows``: the photos' contents first, then the engine's own steps of a capture's rows.
extension PostgresStore {
    /// Sends each staged photo's content once (the server hashes it; a content already there is
    /// kept once) and returns the hashes, in order.
    func storePhotoContents(_ photos: [StagedPhoto], from staging: StagingSession?, _ session: PostgresSession) throws(StorageError)
        -> [String]
    {
        var hashes: [String] = []
        for photo in photos {
            guard let staging, let data = FileManager.default.contents(atPath: staging.path + "/" + photo.storedName) else {
                throw .fileSystem("\(photo.originalName) is missing from its staging folder.")
            }
            guard let hash = try session.storePhotoContent(data, format: photo.format, pixelWidth: photo.pixelWidth, pixelHeight: photo.pixelHeight)
            else { throw .sql("PostgreSQL at \(location.server) did not store \(photo.originalName).") }
            hashes.append(hash)
        }
        return hashes
    }

    /// PostgreSQL's own steps of a capture's rows (``CaptureRows``): before the capture, the
    /// record count's row is locked, so ids are taken in commit order (a follower reading
    /// "after the last id" misses none); its photos are rows naming their contents, stored
    /// already, by hash.
    func captureSteps(_ photos: [(photo: StagedPhoto, hash: String)], _ session: PostgresSession) -> CaptureRows.CaptureSteps {
        CaptureRows.CaptureSteps(
            ahead: { () throws(StorageError) -> Int64? in
                try session.execute("SELECT 1 FROM capture_count WHERE id = 1 FOR UPDATE")
                return nil
            },
            photos: { captureID throws(StorageError) in
                for (position, (photo, hash)) in photos.enumerated() {
                    try session.insertPhotoRow(captureID: captureID, position: position, hash: hash, originalName: photo.originalName)
                }
            })
    }

    /// `history import` on PostgreSQL: every new record's photo contents, the requests they
    /// answer that the store does not hold (each once), then each record the store does not
    /// hold through Done's rows, in one transaction; afterwards the photos go into this host's
    /// cache and the staging folders are deleted. What the store holds is skipped, by uid or by
    /// content (asked inside the transaction).
    public func importHistory(_ history: ImportedHistory) throws(StorageError) -> HistoryImportReport {
        let photos = try history.validated()
        let stagingIDs = history.stagingIDs()
        if let large = photos.joined().first(where: { $0.byteSize > Self.maximumPhotoBytes }) {
            throw .fileRefused("\(large.originalName) is larger than PostgreSQL can keep in one value (1 GB).")
        }
        let (report, hashes): (HistoryImportReport, [Int: [String]]) = try write { session throws(StorageError) in
            let statements = PostgresStatements(session: session)
            let matches = try StatementImportLookup.matches(of: history, statements)
            var hashes: [Int: [String]] = [:]
            for (index, (record, staged)) in zip(history.records, photos).enumerated() where matches.presentRecords[index] == nil {
                hashes[index] = try storePhotoContents(staged, from: record.staging, session)
            }
            let requestIDs = try RequestRows.insertImported(history, matches, statements)
            var ids: [Int64] = []
            for (index, record) in history.records.enumerated() where matches.presentRecords[index] == nil {
                let steps = captureSteps(zip(photos[index], hashes[index] ?? []).map { (photo: $0, hash: $1) }, session)
                ids.append(
                    try CaptureRows.insert(
                        record.submission(requestID: record.request.flatMap { requestIDs[$0] }, photos: photos[index]),
                        createdAt: record.createdAt, stagingID: stagingIDs[index], capturedBy: record.capturedBy, product: record.product,
                        uid: history.uid(ofRecord: index), steps, statements))
            }
            let report = HistoryImportReport(
                recordIDs: ids, skippedRecords: matches.presentRecords.count, addedRequests: requestIDs.count - matches.presentRequests.count)
            return (report, hashes)
        }
        let cache = PhotoCache(directory: media.mediaDirectory, limit: photoCacheLimit)
        for (index, record) in history.records.enumerated() {
            guard let staging = record.staging, let recordHashes = hashes[index] else { continue }
            for (photo, hash) in zip(photos[index], recordHashes) {
                cache.keep(moving: staging.fileURL(of: photo), as: PhotoCache.storedName(hash: hash, format: photo.format))
            }
        }
        history.discardStaging()
        return report
    }
}

extension PostgresSession {
    /// A photo's content, stored once by its SHA-256, which the server computes (a content
    /// already there is kept as it is); returns the hash in hex.
    func storePhotoContent(_ data: Data, format: ImageFormat, pixelWidth: Int, pixelHeight: Int) throws(StorageError) -> String? {
        try value(
            PostgresQuery.bound(
                """
                INSERT INTO photo_content (sha256, content, byte_size, format, pixel_width, pixel_height)
                VALUES (sha256($1), $1, $2, $3, $4, $5)
                ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256
                RETURNING encode(sha256, 'hex')
                """,
                ByteBuffer(bytes: data), Int64(data.count), format.rawValue, Int32(clamping: pixelWidth), Int32(clamping: pixelHeight)),
            as: String.self)
    }

    /// A capture's photo at `position`, naming its content by hash.
    func insertPhotoRow(captureID: Int64, position: Int, hash: String, originalName: String) throws(StorageError) {
        try self.execute(
            """
            INSERT INTO capture_photo (capture_id, position, sha256, original_name)
            VALUES (\(captureID), \(Int32(clamping: position)), decode(\(hash), 'hex'), \(originalName))
            """)
    }
}
