import Domain
import Foundation
import Storage
import TabShell

/// One person's folder beside the database, `people/<name>/`: their photo uploads, the
/// navigation they left when their connection dropped (`session.json`), and the lock the app
/// holds while one of their sessions runs (`session.lock`), so a second session at the same
/// time knows it is the second.
public struct PersonFolder {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `people/<folder name of person>` in the folder holding `database`.
    public init(person: String, beside database: URL) {
        path =
            database.deletingLastPathComponent()
            .appendingPathComponent("people", isDirectory: true)
            .appendingPathComponent(PersonName.folderName(person), isDirectory: true).path
    }

    public var uploads: UploadFolder { UploadFolder(path: path + "/uploads") }
    public var snapshotFile: String { path + "/session.json" }
    public var lockFile: String { path + "/session.lock" }

    /// Creates the folder (0700, with `people/`).
    public func prepare() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    // MARK: - The session lock

    /// Takes the person's session lock, waiting up to `wait` for a session that is ending (a
    /// dropped connection's app saves its snapshot, then exits). Nil when another session holds
    /// it; the lock is released when the returned descriptor is closed or the process ends.
    public func lockSession(waitingUpTo wait: Duration) -> Int32? {
        guard (try? prepare()) != nil else { return nil }
        let fd = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return nil }
        let deadline = ContinuousClock.now.advanced(by: wait)
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
            if errno != EWOULDBLOCK && errno != EINTR { break }
            if ContinuousClock.now >= deadline { break }
            usleep(50_000)
        }
        close(fd)
        return nil
    }

    // MARK: - The snapshot

    /// The snapshot left at the last hang-up, if it was saved within `window` of `now`. The file
    /// is used up either way: a snapshot is restored at most once, and one too old is dropped
    /// (the capture's draft is then offered as after any other interruption).
    public func takeSnapshot(within window: Duration, now: Date) -> SessionSnapshot? {
        guard let data = FileManager.default.contents(atPath: snapshotFile) else { return nil }
        unlink(snapshotFile)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let snapshot = try? decoder.decode(SessionSnapshot.self, from: data),
            snapshot.version == SessionSnapshot.currentVersion
        else { return nil }
        let age = now.timeIntervalSince(snapshot.savedAt)
        let limit = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
        guard age >= -5, age <= limit else { return nil }
        return snapshot
    }

    /// Saves the navigation to come back to (0600, written to a temporary file then renamed).
    public func save(_ snapshot: SessionSnapshot) throws {
        try prepare()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let data = try encoder.encode(snapshot)
        let temp = snapshotFile + ".tmp"
        guard FileManager.default.createFile(atPath: temp, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard rename(temp, snapshotFile) == 0 else {
            unlink(temp)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
