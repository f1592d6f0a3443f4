import Foundation
import Storage
import Synchronization

/// `serve --demo`: every connection gets its own fresh demo data set in a private temporary
/// folder (a seeded database, and the demo's sample photos as the visitor's uploads), shared by
/// that connection's sessions and deleted when the last of them ends. What one visitor does is
/// never seen by another.
final class DemoDataSets: Sendable {
    private struct Entry {
        var directory: URL
        var sessions: Int
    }

    private let entries = Mutex<[Int: Entry]>([:])
    private let root: URL

    init(root: URL = FileManager.default.temporaryDirectory) {
        self.root = root
    }

    /// The data set of connection `connectionID` (made on its first session), counted as used by
    /// one more session until ``release(connectionID:)``.
    func acquire(connectionID: Int, person: String, now: Date) throws -> (database: URL, folder: PersonFolder) {
        let existing = entries.withLock { entries -> URL? in
            guard var entry = entries[connectionID] else { return nil }
            entry.sessions += 1
            entries[connectionID] = entry
            return entry.directory
        }
        var directory: URL
        if let existing {
            directory = existing
        } else {
            let made = root.appendingPathComponent("tabshell-serve-demo-\(UUID().uuidString.lowercased())", isDirectory: true)
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
                if var other = entries[connectionID] {
                    other.sessions += 1
                    entries[connectionID] = other
                    return other.directory
                }
                entries[connectionID] = Entry(directory: made, sessions: 1)
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

    /// One session of the connection ended; the last one deletes the data set.
    func release(connectionID: Int) {
        let finished = entries.withLock { entries -> URL? in
            guard var entry = entries[connectionID] else { return nil }
            entry.sessions -= 1
            if entry.sessions > 0 {
                entries[connectionID] = entry
                return nil
            }
            entries[connectionID] = nil
            return entry.directory
        }
        if let finished { try? FileManager.default.removeItem(at: finished) }
    }

    /// Deletes every data set still there (when the server stops).
    func removeAll() {
        let directories = entries.withLock { entries -> [URL] in
            defer { entries.removeAll() }
            return entries.values.map(\.directory)
        }
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    /// How many data sets exist now.
    var count: Int { entries.withLock { $0.count } }
}
