import Foundation
import GRDB
import Storage

/// What `tabshell doctor` finds out about a database and its files, without changing anything:
/// no folder or file is created, the database is opened read-only (never migrated), and nothing
/// is swept or quarantined.
public struct DatabaseExamination: Equatable, Sendable {
    /// A file or folder and its permission bits, as found.
    public struct Entry: Equatable, Sendable {
        public var path: String
        public var isDirectory: Bool
        /// Permission bits (`st_mode & 0o777`).
        public var mode: UInt32
        /// True when the current user owns it.
        public var ownedByUser: Bool
    }

    /// Where the schema stands compared with this build.
    public enum SchemaState: Equatable, Sendable {
        /// A new, empty file: tabshell sets it up on first start.
        case empty
        /// Every migration this build knows is applied; `version` is the newest, such as "v3".
        case current(version: String)
        /// Older: the next start of tabshell migrates it from `version` (nil when none applied).
        case behind(version: String?, current: String)
        /// Made by a newer tabshell.
        case newer(version: String)
        /// Not a tabshell database.
        case foreign
    }

    public var databasePath: String
    public var databaseExists: Bool
    /// The data folder (the database's folder) and the database's own files, as found.
    public var entries: [Entry] = []
    /// Why the database could not be read, as a sentence; nil when it was read.
    public var openError: String?
    /// `PRAGMA quick_check` (or `integrity_check` when asked) rows: `["ok"]` when healthy.
    public var integrity: [String] = []
    /// True when `integrity` comes from the full `integrity_check`.
    public var fullIntegrityCheck = false
    public var schema: SchemaState = .empty
    public var requestCount = 0
    public var recordCount = 0
    public var photoCount = 0
    /// Photo rows whose file is not in the media folder.
    public var missingPhotoFiles = 0
    /// Files in the media folder that no photo row names (the next start quarantines them).
    public var orphanFiles = 0
    /// Files in the media folder that other users may read or write (expected 0600).
    public var mediaFilesOpenToOthers = 0
    /// Folders of captures in progress or left unfinished.
    public var stagingFolders = 0
    /// Files that start-up recovery moved to the quarantine.
    public var quarantinedFiles = 0
    public var quarantinePath: String
    /// Bytes available to this user on the database's file system; nil when unknown.
    public var freeBytes: Int64?
}

extension AppDatabase {
    /// The schema version this build migrates to, such as "v3".
    public static var currentSchemaVersion: String { Migrations.migrator.migrations.last ?? "v0" }

    /// Examines the database at `url` and its files without writing anything.
    ///
    /// - Parameter fullIntegrityCheck: run `PRAGMA integrity_check` (reads every page and index
    ///   entry; slow on big databases) instead of `quick_check`.
    public static func examine(at url: URL, fullIntegrityCheck: Bool = false) -> DatabaseExamination {
        let path = url.path
        let media = MediaStore(databaseURL: url)
        var result = DatabaseExamination(
            databasePath: path, databaseExists: false, quarantinePath: media.quarantineDirectory.path)
        let directory = url.deletingLastPathComponent().path
        result.entries = Self.entries([
            directory, path, path + "-wal", path + "-shm", path + ".lock",
            directory + "/tabshell.log", directory + "/tabshell.log.1",
            media.rootDirectory.path, media.mediaDirectory.path,
            media.stagingDirectory.path, media.quarantineDirectory.path,
        ])
        result.databaseExists = result.entries.contains { $0.path == path }
        var fs = statvfs()
        if statvfs(result.databaseExists ? path : directory, &fs) == 0 {
            result.freeBytes = Int64(fs.f_bavail) * Int64(fs.f_frsize)
        }
        result.stagingFolders = (DurableFiles.entries(of: media.stagingDirectory.path) ?? []).count
        result.quarantinedFiles = countFiles(under: media.quarantineDirectory.path)
        guard result.databaseExists else { return result }

        do {
            try DatabaseFiles.refuseSpecialFile(path)
            var config = Configuration()
            config.readonly = true
            config.busyMode = .timeout(5)
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            try queue.read { db in
                result.fullIntegrityCheck = fullIntegrityCheck
                result.integrity = try String.fetchAll(
                    db, sql: fullIntegrityCheck ? "PRAGMA integrity_check" : "PRAGMA quick_check")
                let migrator = Migrations.migrator
                switch try SchemaCompatibility(db, migrator: migrator) {
                case .foreign:
                    result.schema = .foreign
                    return
                case let .newer(version):
                    result.schema = .newer(version: version)
                    return
                case .compatible:
                    guard try db.tableExists("grdb_migrations") else {
                        result.schema = .empty
                        return
                    }
                    let applied = try migrator.appliedIdentifiers(db)
                    let newest = migrator.migrations.last(where: applied.contains)
                    result.schema =
                        newest == currentSchemaVersion
                        ? .current(version: currentSchemaVersion)
                        : .behind(version: newest, current: currentSchemaVersion)
                }
                guard try db.tableExists("capture") else { return }
                result.requestCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM request") ?? 0
                result.recordCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM capture") ?? 0
                guard try db.tableExists("photo") else { return }
                var referenced = Set<String>()
                let names = try String.fetchCursor(db, sql: "SELECT storedName FROM photo")
                let mediaPath = media.mediaDirectory.path
                while let name = try names.next() {
                    result.photoCount += 1
                    referenced.insert(name)
                    if DurableFiles.status(mediaPath + "/" + name).map(DurableFiles.isRegularFile) != true {
                        result.missingPhotoFiles += 1
                    }
                }
                let files = DurableFiles.entries(of: mediaPath) ?? []
                result.orphanFiles = files.filter { !referenced.contains($0) }.count
                result.mediaFilesOpenToOthers =
                    files.filter { name in
                        DurableFiles.status(mediaPath + "/" + name).map { $0.st_mode & 0o077 != 0 } == true
                    }.count
            }
        } catch {
            result.openError = StorageError.opening(error, path: path).message
        }
        return result
    }

    private static func entries(_ paths: [String]) -> [DatabaseExamination.Entry] {
        paths.compactMap { path in
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            return DatabaseExamination.Entry(
                path: path, isDirectory: (info.st_mode & S_IFMT) == S_IFDIR,
                mode: UInt32(info.st_mode & 0o777), ownedByUser: info.st_uid == getuid())
        }
    }

    private static func countFiles(under directory: String) -> Int {
        var count = 0
        for name in DurableFiles.entries(of: directory) ?? [] {
            let path = directory + "/" + name
            guard let info = DurableFiles.status(path) else { continue }
            if DurableFiles.isDirectory(info) { count += countFiles(under: path) } else { count += 1 }
        }
        return count
    }
}
