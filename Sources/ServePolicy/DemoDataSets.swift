import Foundation
import Presenting
import SQLiteStorage
import Storage
import Synchronization

/// `serve --demo`: every connection gets its own fresh demo data set in a private temporary
/// folder (a seeded database, and the demo's sample photos as the visitor's uploads), shared by
/// that connection's sessions and deleted when the last of them ends. What one visitor does is
/// never seen by another.
public final class DemoDataSets: Sendable {
    private struct Entry {
        var directory: URL
        var sessions: Int
        /// The visitor's address (`SSHPeer.source`), whose uploads across connections share one quota.
        var source = ""
        /// The code the visitor's sessions show in their heading, which lets an agent in
        /// (`ssh host mcp CODE`) onto this data set only.
        var agentCode: WatchCode
    }

    /// Where a demo session finds its data set's agent code, to show it in its heading.
    public static let agentCodeKey = "TABSHELL_AGENT_CODE"

    private let entries = Mutex<[Int: Entry]>([:])
    /// Where this server's data sets are made.
    public let parent: URL
    /// The server's lock on `parent` (``serving(in:)``): held open, flock'd, for the server's life.
    private let lock: Mutex<Int32?>

    /// Data sets made in `root`; a server's come from ``serving(in:)``, which holds `lock`.
    init(root: URL, lock: Int32? = nil) {
        self.parent = root
        self.lock = Mutex(lock)
    }

    /// The prefix of a server's own parent folder in the temporary folder.
    public static let parentPrefix = "tabshell-serve-demos-"
    /// The file a running server holds locked (flock) in its parent folder.
    public static let lockName = "server.lock"

    /// The data sets of a server starting now: their parent is a new folder of its own in
    /// `temporary` (`tabshell-serve-demos-…`, 0700) holding `server.lock`, locked for as long as
    /// this process runs, so ``sweep(in:)`` tells a live server's folders from a dead one's.
    public static func serving(in temporary: URL = FileManager.default.temporaryDirectory) throws -> DemoDataSets {
        let parent = temporary.appendingPathComponent(parentPrefix + UUID().uuidString.lowercased(), isDirectory: true)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(parent.appendingPathComponent(lockName).path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if fd >= 0 { close(fd) }
            try? FileManager.default.removeItem(at: parent)
            throw CocoaError(.fileWriteUnknown)
        }
        return DemoDataSets(root: parent, lock: fd)
    }

    /// Removes what servers that did not stop (SIGKILL, a crash, power) left in `temporary`: every
    /// `tabshell-serve-demos-…` folder whose `server.lock` nobody holds (a live server's lock is
    /// held, so another server's folders are kept). Returns how many demo data sets were removed.
    @discardableResult
    public static func sweep(in temporary: URL = FileManager.default.temporaryDirectory, now: Date = Date()) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(parentPrefix) {
            let parent = temporary.appendingPathComponent(name, isDirectory: true)
            let fd = open(parent.appendingPathComponent(lockName).path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if fd < 0 {
                // No lock file: a server between making its folder and locking it, or a crash
                // right there. Only one older than a minute is taken for dead.
                let made = (try? FileManager.default.attributesOfItem(atPath: parent.path)[.modificationDate]) as? Date
                guard let made, now.timeIntervalSince(made) > 60 else { continue }
            } else {
                defer { close(fd) }
                guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
                // A lock file made this instant may be a starting server's, not yet flock'd.
                let lockPath = parent.appendingPathComponent(lockName).path
                let made = (try? FileManager.default.attributesOfItem(atPath: lockPath)[.modificationDate]) as? Date
                guard let made, now.timeIntervalSince(made) > 1 else { continue }
            }
            let sets = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
            removed += sets.filter { $0.hasPrefix("tabshell-serve-demo-") }.count
            try? FileManager.default.removeItem(at: parent)
        }
        return removed
    }

    /// The data set of connection `connectionID` (made on its first session), counted as used by
    /// one more session until ``release(connectionID:)``.
    public func acquire(connectionID: Int, person: String, now: Date, source: String = "") throws -> (database: URL, folder: PersonFolder) {
        let existing = entries.withLock { entries -> URL? in
            entries[connectionID]?.sessions += 1
            return entries[connectionID]?.directory
        }
        var directory: URL
        if let existing {
            directory = existing
        } else {
            let made = parent.appendingPathComponent("tabshell-serve-demo-\(UUID().uuidString.lowercased())", isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                let db = try AppDatabase.open(at: made.appendingPathComponent("tabshell.sqlite"))
                try AppDatabase.seedDemo(db, now: now)
            } catch {
                try? FileManager.default.removeItem(at: made)
                throw error
            }
            // Another session of the connection may have made one meanwhile: one set per connection.
            directory = entries.withLock { entries in
                if let other = entries[connectionID]?.directory {
                    entries[connectionID]?.sessions += 1
                    return other
                }
                var generator = SystemRandomNumberGenerator()
                var code = WatchCode.random(using: &generator)
                while entries.values.contains(where: { $0.agentCode == code }) { code = WatchCode.random(using: &generator) }
                entries[connectionID] = Entry(directory: made, sessions: 1, source: source, agentCode: code)
                return made
            }
            if directory != made { try? FileManager.default.removeItem(at: made) }
        }
        let database = directory.appendingPathComponent("tabshell.sqlite")
        let folder = PersonFolder(person: person, beside: database)
        try folder.prepare()
        if folder.uploads.names().isEmpty { try folder.uploads.addDemoPhotos() }
        return (database, folder)
    }

    /// The agent code of connection `connectionID`'s data set (nil once it is gone).
    public func agentCode(connectionID: Int) -> WatchCode? {
        entries.withLock { $0[connectionID]?.agentCode }
    }

    /// The data set whose sessions show the agent code `typed`, counted as used by one more
    /// session (the agent's) until ``release(connectionID:)`` with the connection returned; nil
    /// when no live data set has that code (a wrong guess, said the same way whatever the reason).
    public func joinByAgentCode(_ typed: String) -> (connectionID: Int, database: URL)? {
        guard let code = WatchCode(typed) else { return nil }
        return entries.withLock { entries in
            guard let (connection, entry) = entries.first(where: { $0.value.agentCode == code }) else { return nil }
            entries[connection]?.sessions += 1
            return (connection, entry.directory.appendingPathComponent("tabshell.sqlite"))
        }
    }

    /// The upload folders of the visitor at `source` in its other connections' data sets (its
    /// uploads share one quota, whichever connection added them).
    public func uploadFolders(source: String, except connectionID: Int) -> [UploadFolder] {
        let directories = entries.withLock { entries in
            entries.filter { $0.key != connectionID && $0.value.source == source }.map(\.value.directory)
        }
        return directories.flatMap { directory -> [UploadFolder] in
            let people = directory.appendingPathComponent("people").path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: people)) ?? []
            return names.map { PersonFolder(path: people + "/" + $0).uploads }
        }
    }

    /// One session of the connection ended; the last one deletes the data set.
    public func release(connectionID: Int) {
        let finished = entries.withLock { entries -> URL? in
            entries[connectionID]?.sessions -= 1
            guard let entry = entries[connectionID], entry.sessions <= 0 else { return nil }
            entries[connectionID] = nil
            return entry.directory
        }
        if let finished { try? FileManager.default.removeItem(at: finished) }
    }

    /// Deletes every data set still there (when the server stops), and the server's own parent
    /// folder with its lock when it has one.
    public func removeAll() {
        let directories = entries.withLock { entries -> [URL] in
            defer { entries.removeAll() }
            return entries.values.map(\.directory)
        }
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
        if let fd = lock.withLock({ $0.take() }) {
            try? FileManager.default.removeItem(at: parent)
            close(fd)
        }
    }

    /// How many data sets exist now.
    public var count: Int { entries.withLock { $0.count } }
}
