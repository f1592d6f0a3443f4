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

    /// The checks of SQLite's file (`databaseURL`) after a kill.
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
        }
        return try check.finish(BackDoor(sqlite: queue), media: media, report: report, journalPath: journalPath)
    }

    /// The checks of a PostgreSQL store after a kill: its counters against its rows (what
    /// "integrity" means there), every photo row's content in the database and no content
    /// without a row, and the host's cache holding only whole photos.
    static func run(postgres back: BackDoor, media: MediaStore, report: RecoveryReport, journalPath: String) throws -> CrashCheck {
        var check = CrashCheck()
        let counted = try back.integers(
            """
            SELECT ((SELECT count FROM capture_count WHERE id = 1) = (SELECT count(*) FROM capture))::int
                 + ((SELECT pending FROM request_count WHERE id = 1) = (SELECT count(*) FROM request WHERE status = 'pending'))::int
            """)
        check.integrity = counted == [2] ? ["ok"] : ["the record or request counters differ from the rows"]
        check.photosInDatabase = Int(try back.integers("SELECT count(*) FROM capture_photo").first ?? -1)
        check.missingFiles = Int(
            try back.integers(
                "SELECT count(*) FROM capture_photo p WHERE NOT EXISTS (SELECT 1 FROM photo_content c WHERE c.sha256 = p.sha256)"
            ).first ?? -1)
        check.orphans = Int(
            try back.integers(
                "SELECT count(*) FROM photo_content c WHERE NOT EXISTS (SELECT 1 FROM capture_photo p WHERE p.sha256 = c.sha256)"
            ).first ?? -1)
        // The cache: whole photos only (no partial copy left by a kill mid-write).
        check.orphans += listing(media.mediaDirectory).filter { PhotoCache.hash(ofStoredName: $0) == nil }.count
        return try check.finish(back, media: media, report: report, journalPath: journalPath)
    }

    /// The checks both engines answer alike.
    private func finish(_ back: BackDoor, media: MediaStore, report: RecoveryReport, journalPath: String) throws -> CrashCheck {
        var check = self
        let photos = back.engine == .sqlite ? "photo p ON p.captureId = c.id" : "capture_photo p ON p.capture_id = c.id"
        check.incompleteCaptures = try back.integer(
            sqlite: """
                SELECT COUNT(*) FROM (
                    SELECT c.note, COUNT(p.id) AS n, COALESCE(MAX(p.position), -1) AS last
                    FROM capture c LEFT JOIN \(photos) GROUP BY c.id)
                WHERE COALESCE(note, '') <> 'photos=' || n OR last <> n - 1
                """,
            postgres: """
                SELECT count(*) FROM (
                    SELECT c.note, count(p.position) AS n, COALESCE(max(p.position), -1) AS last
                    FROM capture c LEFT JOIN \(photos) GROUP BY c.id) AS t
                WHERE COALESCE(note, '') <> 'photos=' || n OR last <> n - 1
                """)
        check.unansweredRequests = try back.integer(
            sqlite: "SELECT COUNT(*) FROM capture c JOIN request r ON r.id = c.requestId WHERE r.status <> 'done'",
            postgres: "SELECT count(*) FROM capture c JOIN request r ON r.id = c.request_id WHERE r.status <> 'done'")
        let ids = Set(try back.integers("SELECT id FROM capture"))
        check.capturesInDatabase = ids.count
        let journal = CrashJournal(path: journalPath)
        check.acknowledgedCommits = journal.acknowledged
        check.lostCommits = journal.surelyAlive.subtracting(ids).count
        // With the victim dead, every staging folder left is a draft on offer, whole and tidy,
        // and none of them was committed already (offering it would duplicate a record).
        let offered = Set(report.drafts.map(\.id))
        var committedOffers = 0
        if !offered.isEmpty {
            // The ids are recovery's UUIDs (checked when read), so they are quoted as they are.
            let list = offered.sorted().map { "'\($0)'" }.joined(separator: ", ")
            committedOffers = try back.integer(
                sqlite: "SELECT COUNT(*) FROM capture WHERE stagingId IN (\(list))",
                postgres: "SELECT count(*) FROM capture WHERE staging_id IN (\(list))")
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
