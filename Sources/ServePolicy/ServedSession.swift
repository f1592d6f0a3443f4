import Domain
import Foundation
import Logging
import TabShell

/// A person's session under `tabshell serve`, from start to hang-up.
public struct ServedSession {
    public let folder: PersonFolder
    /// The person's session lock, held for the life of the process; nil for a second session.
    public let lock: Int32?
    public let snapshot: SessionSnapshot?
    public let message: String?

    /// A served session as it starts: the person's folder, and whether this session is theirs
    /// to keep (it holds their session lock) and comes back to a snapshot.
    public static func start(folder: String, resumeSeconds: Int, person: String, logger: Logger) -> ServedSession? {
        let personFolder = PersonFolder(path: folder)
        do {
            try personFolder.prepare()
            try personFolder.uploads.prepare()
        } catch {
            logger.warning("cannot prepare the person's folder", metadata: ["folder": "\(folder)", "error": "\(error)"])
        }
        // A session of the same person that is ending (its connection dropped) saves its
        // snapshot and exits within a moment; a second session at the same time keeps the lock.
        guard let lock = personFolder.lockSession(waitingUpTo: .milliseconds(1500)) else {
            logger.info("another session of this person is running; starting fresh", metadata: ["person": "\(person)"])
            return ServedSession(
                folder: personFolder, lock: nil, snapshot: nil,
                message: "You are connected in another session too: this one starts fresh and is not kept if it drops.")
        }
        var snapshot: SessionSnapshot?
        if resumeSeconds > 0 {
            snapshot = personFolder.takeSnapshot(within: .seconds(resumeSeconds), now: Date())
        }
        return ServedSession(
            folder: personFolder, lock: lock, snapshot: snapshot,
            message: snapshot.map { "Welcome back: everything is as you left it (\(Age.phrase(from: $0.savedAt, now: Date())))." })
    }

    /// On hang-up: keeps the navigation for the person's next session within the window. Only
    /// the session holding the lock keeps one.
    public func keep(_ snapshot: SessionSnapshot, logger: Logger) {
        guard lock != nil else { return }
        do {
            try folder.save(snapshot)
            logger.info("session kept for coming back", metadata: ["capture": "\(snapshot.capture != nil)"])
        } catch {
            logger.warning("could not keep the session", metadata: ["error": "\(error)"])
        }
    }
}
