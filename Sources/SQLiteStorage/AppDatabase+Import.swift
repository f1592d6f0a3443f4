import CaptureMode
import Foundation
import GRDB
import Storage
import TabShell

extension AppDatabase {
    /// Adds every request as pending, created at `now`, in one transaction: all or nothing.
    /// Returns their ids in order.
    /// `createdBy` names who imported them.
    public func importRequests(_ requests: [NewRequest], now: Date, createdBy: String? = nil) throws(StorageError) -> [Int64] {
        try RequestLimits.validate(requests)
        return try write { db in
            var ids: [Int64] = []
            ids.reserveCapacity(requests.count)
            for request in requests {
                var record = RequestRecord(
                    title: request.title.trimmingCharacters(in: .whitespacesAndNewlines), body: request.body,
                    kind: request.kind, status: .pending, createdAt: now, createdBy: createdBy,
                    requester: request.requester)
                try record.insert(db)
                ids.append(db.lastInsertedRowID)
            }
            return ids
        }
    }

    /// Requests for `tabshell inbox list`: pending first, then done, newest first; every one
    /// when `limit` is nil (the Inbox reads the first 1,000).
    public func requestListing(limit: Int?) throws(StorageError) -> [InboxRequest] {
        try read { db in
            try Self.inboxPage(limit: InboxOrder.listingLimit(limit), db).compactMap(\.inboxRequest)
        }
    }
}

extension AppDatabase {
    /// `history import`: the requests as they were, then each record through Done's own steps
    /// (its staged photos moved into the media folder and synced first, then its rows), all in
    /// one transaction: all or nothing. Returns the records' new ids, in order.
    public func importHistory(_ history: ImportedHistory) throws(StorageError) -> [Int64] {
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
        let ids: [Int64]
        do {
            ids = try write { db in
                var requestIDs: [Int64] = []
                for request in history.requests {
                    var row = RequestRecord(
                        title: request.title, body: request.body, kind: request.kind, status: request.status, createdAt: request.createdAt,
                        doneAt: request.doneAt, createdBy: request.createdBy, requester: request.requester)
                    try row.insert(db)
                    requestIDs.append(db.lastInsertedRowID)
                }
                var ids: [Int64] = []
                for (index, record) in history.records.enumerated() {
                    ids.append(
                        try insertCapture(
                            record.submission(requestID: record.request.map { requestIDs[$0] }, photos: photos[index]),
                            photos: photos[index], createdAt: record.createdAt, stagingID: stagingIDs[index], capturedBy: record.capturedBy,
                            product: record.product, db))
                }
                return ids
            }
        } catch {
            moveBackAll()
            throw error
        }
        // Step 3: past the commit, the staging folders are garbage.
        history.discardStaging()
        return ids
    }
}
