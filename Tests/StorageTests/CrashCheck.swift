import Foundation
import GRDB
import Storage

/// What the checks after one kill found.
struct CrashCheck {
    var integrity: [String] = []
    /// Photo rows whose file is not in the media folder.
    var missingFiles = 0
    /// Media files no row names (after a sweep with no grace period).
    var orphans = 0
    /// Captures whose photo rows do not match the count in their note, or whose positions have gaps.
    var incompleteCaptures = 0
    /// Commits the victim saw succeed that are not in the database (and were not deleted).
    var lostCommits = 0
    var acknowledgedCommits = 0
    /// Captures answering a request that is not marked done.
    var unansweredRequests = 0
    /// Staging folders that are not offered drafts, and draft files that are missing or partial.
    var staleStaging = 0
    var capturesInDatabase = 0
    var photosInDatabase = 0

    var isClean: Bool {
        integrity == ["ok"] && missingFiles == 0 && orphans == 0 && incompleteCaptures == 0
            && lostCommits == 0 && unansweredRequests == 0 && staleStaging == 0
    }

    static func run(databaseURL: URL, media: MediaStore, report: RecoveryReport, journalPath: String) throws -> CrashCheck {
        var check = CrashCheck()
        let queue = try DatabaseQueue(path: databaseURL.path)
        defer { try? queue.close() }
        try queue.read { db in
            check.integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            let storedNames = try String.fetchAll(db, sql: "SELECT storedName FROM photo")
            check.photosInDatabase = storedNames.count
            check.missingFiles = storedNames.filter { !exists(media.url(forStoredName: $0).path) }.count
            check.orphans = Set(listing(media.mediaDirectory)).subtracting(storedNames).count
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.note, COUNT(p.id) AS photoCount, COALESCE(MAX(p.position), -1) AS lastPosition
                    FROM capture c LEFT JOIN photo p ON p.captureId = c.id GROUP BY c.id
                    """)
            check.capturesInDatabase = rows.count
            check.incompleteCaptures =
                rows.filter { row in
                    let note: String = row["note"] ?? ""
                    let count: Int = row["photoCount"]
                    let last: Int = row["lastPosition"]
                    return note != "photos=\(count)" || last != count - 1
                }.count
            check.unansweredRequests =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM capture c JOIN request r ON r.id = c.requestId WHERE r.status <> 'done'
                        """) ?? -1
            let ids = Set(try Int64.fetchAll(db, sql: "SELECT id FROM capture"))
            let journal = CrashJournal(path: journalPath)
            check.acknowledgedCommits = journal.acknowledged
            check.lostCommits = journal.surelyAlive.subtracting(ids).count
        }
        // With the victim dead, every staging folder left is a draft on offer, whole and tidy,
        // and none of them was committed already (offering it would duplicate a record).
        let offered = Set(report.drafts.map(\.id))
        let committedOffers = try queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM capture WHERE stagingId IN (SELECT value FROM json_each(?))",
                arguments: [String(decoding: try JSONEncoder().encode(Array(offered)), as: UTF8.self)]) ?? -1
        }
        let folders = listing(media.stagingDirectory)
        check.staleStaging = Set(folders).symmetricDifference(offered).count + committedOffers
        for draft in report.drafts {
            let names = listing(draft.directory)
            check.staleStaging += names.filter { $0.hasPrefix(".tmp-") }.count
            check.staleStaging += draft.draft.photos.filter { !names.contains($0.storedName) }.count
        }
        return check
    }
}
