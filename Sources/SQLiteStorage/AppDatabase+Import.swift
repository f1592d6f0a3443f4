import Domain
import Foundation
import GRDB
import Storage

extension AppDatabase {
    /// `history import`: the requests the new records answer (each once: one the store has is
    /// linked, not copied), then each record the store does not hold yet through Done's own steps
    /// (its staged photos moved into the media folder and synced first, then its rows), all in
    /// one transaction: all or nothing. What the store holds is skipped, by uid or by content
    /// (``ImportedHistory/matches(in:)``, asked again inside the transaction).
    public func importHistory(_ history: ImportedHistory) throws(StorageError) -> HistoryImportReport {
        let photos = try history.validated()
        let stagingIDs = history.stagingIDs()
        // Step 1: files first, durably; put back into their staging folders on any failure.
        var moved: [(StagingSession, [StagedPhoto])] = []
        func moveBackAll() {
            for (staging, photos) in moved { moveBack(photos, to: staging) }
        }
        for (record, staged) in zip(history.records, photos) where !staged.isEmpty {
            guard let staging = record.staging else { continue }
            do throws(StorageError) {
                moved.append((staging, try movePhotosIntoMedia(staged, from: staging)))
            } catch {
                moveBackAll()
                throw error
            }
        }
        // Step 2: one transaction for the requests and every record.
        let report: HistoryImportReport
        do {
            report = try write { db in
                let statements = SQLiteStatements(db: db, path: url.path)
                let matches = try StatementImportLookup.matches(of: history, statements)
                let requestIDs = try RequestRows.insertImported(history, matches, statements)
                var ids: [Int64] = []
                for (index, record) in history.records.enumerated() where matches.presentRecords[index] == nil {
                    let submission = record.submission(requestID: record.request.flatMap { requestIDs[$0] }, photos: photos[index])
                    ids.append(
                        try CaptureRows.insert(
                            submission, createdAt: record.createdAt, stagingID: stagingIDs[index], capturedBy: record.capturedBy,
                            product: record.product, uid: history.uid(ofRecord: index), captureSteps(submission, photos: photos[index], db),
                            statements))
                }
                return HistoryImportReport(
                    recordIDs: ids, skippedRecords: matches.presentRecords.count,
                    addedRequests: requestIDs.count - matches.presentRequests.count)
            }
        } catch {
            moveBackAll()
            throw error
        }
        // Step 3: past the commit, the staging folders are garbage (a skipped record's photos
        // were moved in and are no row's: recovery's sweep quarantines them).
        history.discardStaging()
        return report
    }
}
