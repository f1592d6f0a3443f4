import Domain
import Foundation

/// What start-up recovery (``StagingLedger/recover(graceSeconds:now:)``) found and did, for the
/// log and for Settings.
public struct RecoveryReport: Equatable, Sendable {
    /// An unfinished capture whose process is gone, ready to be resumed or discarded.
    public struct Draft: Equatable, Sendable, Identifiable {
        /// Its staging folder.
        public var directory: URL
        /// What it had collected; only photos whose files are in the folder are listed.
        public var draft: CaptureDraft

        public var id: String { directory.lastPathComponent }
    }

    /// Unfinished captures to offer back (Resume / Discard), oldest folder name first.
    public var drafts: [Draft] = []
    /// Abandoned staging folders removed: empty ones, and those left behind by a crash after Done committed.
    public var removedStagingDirectories = 0
    /// Partial copies (`.tmp-*`) and staged files no draft listed, removed from abandoned folders.
    public var removedTempFiles = 0
    /// Photos an interrupted Done had moved into the media folder, put back into their draft.
    public var restoredPhotos = 0
    /// Files moved to the quarantine: media files no row names, and unreadable drafts.
    public var quarantinedFiles = 0
    /// Where this recovery quarantined files, if it did.
    public var quarantineDirectory: URL?
    /// Sentences about what could not be done (a folder that could not be removed…), for the log.
    public var problems: [String] = []

    /// One sentence saying what was found and swept, or "" when there was nothing to do.
    public var summary: String {
        var clauses: [String] = []
        if !drafts.isEmpty {
            clauses.append("found \(Self.count(drafts.count, "unfinished capture"))")
        }
        if restoredPhotos > 0 {
            clauses.append("put back \(Self.count(restoredPhotos, "photo")) of an interrupted Done")
        }
        if removedStagingDirectories > 0 {
            clauses.append("removed \(Self.count(removedStagingDirectories, "abandoned staging folder"))")
        }
        if removedTempFiles > 0 {
            clauses.append("removed \(Self.count(removedTempFiles, "partial file"))")
        }
        if quarantinedFiles > 0 {
            let place = quarantineDirectory.map { " to \($0.path)" } ?? " to the quarantine"
            clauses.append("moved \(Self.count(quarantinedFiles, "unreferenced file"))\(place)")
        }
        guard let first = clauses.first else { return "" }
        var sentence = first.prefix(1).uppercased() + first.dropFirst()
        for (index, clause) in clauses.enumerated().dropFirst() {
            sentence += (index == clauses.count - 1 ? " and " : ", ") + clause
        }
        return sentence + "."
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
