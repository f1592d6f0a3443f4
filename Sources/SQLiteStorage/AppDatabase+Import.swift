import Domain
import Foundation
import GRDB
import Storage

extension AppDatabase {
    /// Which of `history`'s records and requests this store already holds (for `--dry-run`, and
    /// so only the new records' photos are copied in).
    public func importMatches(_ history: ImportedHistory) throws(StorageError) -> ImportMatches {
        try read { db in try history.matches(in: SQLiteImportLookup(db: db)) }
    }

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
                let matches = try history.matches(in: SQLiteImportLookup(db: db))
                var requestIDs = matches.presentRequests
                for index in matches.newRequests(of: history).sorted() {
                    let request = history.requests[index]
                    var row = RequestRecord(
                        title: request.title, body: request.body, kind: request.kind, status: request.status, createdAt: request.createdAt,
                        doneAt: request.doneAt, createdBy: request.createdBy, requester: request.requester,
                        uid: history.uid(ofRequest: index))
                    try row.insert(db)
                    requestIDs[index] = db.lastInsertedRowID
                }
                var ids: [Int64] = []
                for (index, record) in history.records.enumerated() where matches.presentRecords[index] == nil {
                    ids.append(
                        try insertCapture(
                            record.submission(requestID: record.request.flatMap { requestIDs[$0] }, photos: photos[index]),
                            photos: photos[index], createdAt: record.createdAt, stagingID: stagingIDs[index], capturedBy: record.capturedBy,
                            product: record.product, uid: history.uid(ofRecord: index), db))
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

/// Import's questions (``ImportLookup``) on one SQLite snapshot or transaction.
struct SQLiteImportLookup: ImportLookup {
    let db: Database

    /// A millisecond either side: the export keeps times to the millisecond.
    private func window(_ date: Date) -> StatementArguments {
        [date.addingTimeInterval(-0.001), date.addingTimeInterval(0.001)]
    }

    func recordID(uid: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM capture WHERE uid = ?", arguments: [uid])
    }

    func records(near date: Date) throws -> [(id: Int64, fingerprint: RecordFingerprint)] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, kind, barcode, symbology, note, capturedBy, createdAt FROM capture WHERE createdAt BETWEEN ? AND ?",
            arguments: window(date))
        return try rows.compactMap { row -> (id: Int64, fingerprint: RecordFingerprint)? in
            guard let kind = CaptureKind(rawValue: row["kind"] ?? ""), let createdAt: Date = row["createdAt"] else { return nil }
            let id: Int64 = row["id"]
            var barcode: Barcode?
            if let value: String = row["barcode"], let symbology = Symbology(rawValue: row["symbology"] ?? "") {
                barcode = Barcode(value: value, symbology: symbology)
            }
            let lines = kind == .batch ? try AppDatabase.batchLines(captureID: id, db) : []
            let fingerprint = RecordFingerprint(
                kind: kind, createdAt: createdAt, capturedBy: row["capturedBy"], barcode: barcode, note: row["note"], lines: lines)
            return (id, fingerprint)
        }
    }

    func requestID(uid: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM request WHERE uid = ?", arguments: [uid])
    }

    func requests(near date: Date) throws -> [(id: Int64, fingerprint: RequestFingerprint)] {
        try Row.fetchAll(db, sql: "SELECT id, title, kind, createdAt FROM request WHERE createdAt BETWEEN ? AND ?", arguments: window(date))
            .compactMap { row -> (id: Int64, fingerprint: RequestFingerprint)? in
                guard let kind = CaptureKind(rawValue: row["kind"] ?? ""), let title: String = row["title"],
                    let createdAt: Date = row["createdAt"]
                else { return nil }
                return (row["id"], RequestFingerprint(title: title, kind: kind, createdAt: createdAt))
            }
    }
}
