import Foundation
import Storage

/// Figures over the whole crash test.
struct CrashTotals {
    var kills = 0
    var acknowledgedCommits = 0
    var lostCommits = 0
    var draftsOffered = Set<String>()
    var restoredPhotos = 0
    var removedStagingDirectories = 0
    var removedTempFiles = 0
    var quarantinedFiles = 0
    var missingFiles = 0
    var orphans = 0
    var integrityOK = true
    var capturesInDatabase = 0
    var photosInDatabase = 0

    mutating func add(_ report: RecoveryReport) {
        draftsOffered.formUnion(report.drafts.map(\.id))
        restoredPhotos += report.restoredPhotos
        removedStagingDirectories += report.removedStagingDirectories
        removedTempFiles += report.removedTempFiles
        quarantinedFiles += report.quarantinedFiles
    }

    mutating func add(_ check: CrashCheck) {
        acknowledgedCommits = check.acknowledgedCommits
        lostCommits += check.lostCommits
        missingFiles += check.missingFiles
        orphans += check.orphans
        integrityOK = integrityOK && check.integrity == ["ok"]
        capturesInDatabase = check.capturesInDatabase
        photosInDatabase = check.photosInDatabase
    }

    func line(seconds: TimeInterval, seed: UInt64) -> String {
        func n(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "crash test: \(n(kills, "kill")), \(n(acknowledgedCommits, "commit")) acknowledged and \(lostCommits) lost, "
            + "\(n(capturesInDatabase, "record")) with \(n(photosInDatabase, "photo")) at the end, "
            + "\(n(draftsOffered.count, "draft")) offered, \(n(restoredPhotos, "photo")) put back from interrupted Dones, "
            + "\(n(removedStagingDirectories, "staging folder")) and \(n(removedTempFiles, "partial file")) swept, "
            + "\(n(quarantinedFiles, "file")) quarantined, integrity \(integrityOK ? "ok" : "FAILED"), "
            + "\(missingFiles) missing files, \(orphans) orphans "
            + String(format: "(%.1f s, seed %llu)", seconds, seed)
    }
}
