import Foundation
import GRDB
import Storage

extension AppDatabase: MediaSweeping {
    public func isPhotoReferenced(_ storedName: String) -> Bool {
        // When the database cannot say, the file counts as named: it stays where it is.
        (try? read { db in try Self.isNamed(storedName, db) }) ?? true
    }

    /// Whether a `photo` row names the media file `storedName`.
    private static func isNamed(_ storedName: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE storedName = ?)", arguments: [storedName]) ?? false
    }

    // MARK: - Media

    /// Moves unreferenced media files older than the grace period to the quarantine.
    ///
    /// Candidates are found against a read snapshot (which does not block other sessions); each
    /// is then checked again and moved under the write lock, so that no Done can commit a row
    /// for a file while it is being moved, and the lock is held only for the few candidates.
    public func sweepMedia(graceSeconds: TimeInterval, now: Date, report: inout RecoveryReport) throws(StorageError) {
        let mediaPath = media.mediaDirectory.path
        guard let names = DurableFiles.entries(of: mediaPath), !names.isEmpty else { return }
        let cutoff = now.addingTimeInterval(-max(graceSeconds, 0))
        func isStale(_ name: String) -> Bool {
            guard let info = DurableFiles.status(mediaPath + "/" + name), DurableFiles.isRegularFile(info) else { return false }
            return DurableFiles.modificationDate(info) <= cutoff
        }
        let referenced = try read { db in Set(try String.fetchAll(db, sql: "SELECT storedName FROM photo")) }
        let candidates = names.filter { !referenced.contains($0) && isStale($0) }.sorted()
        guard !candidates.isEmpty else { return }

        var swept = report
        try write { db in
            for name in candidates {
                guard try !Self.isNamed(name, db), isStale(name) else { continue }
                let path = mediaPath + "/" + name
                let quarantine = try quarantineFolder(now: now, report: &swept)
                if rename(path, quarantine + "/" + name) == 0 {
                    swept.quarantinedFiles += 1
                } else {
                    swept.problems.append("Cannot move \(path) to the quarantine: \(DurableFiles.reason(errno: errno)).")
                }
            }
        }
        report = swept
        if let quarantine = report.quarantineDirectory {
            try? DurableFiles.syncDirectory(quarantine.path)
            try? DurableFiles.syncDirectory(mediaPath)
        }
    }
}
