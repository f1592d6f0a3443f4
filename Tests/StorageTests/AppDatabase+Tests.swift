import Domain
import Foundation
import GRDB

@testable import SQLiteStorage
@testable import Storage

/// What the storage tests ask of an SQLite store beside the app's calls.
extension AppDatabase {
    /// A database over `writer` (`DatabaseQueue()` in memory, where the file is not the point),
    /// its schema brought up to date; `url` names it in sentences and places its media folders
    /// (`<url>.files/`, made on first use). GRDB's default configuration enforces foreign keys,
    /// as the schema expects; the functions the triggers call are added to the writer's connection.
    convenience init(writer: some DatabaseWriter, url: URL) throws {
        writer.writeWithoutTransaction { db in Self.addSchemaFunctions(db) }
        try Migrations.migrator.migrate(writer)
        self.init(url: url, opened: writer)
    }

    /// The capture with this id, as History shows it, or nil if there is none (the app reads a
    /// record with its detail).
    func record(id: Int64) throws(StorageError) -> HistoryRow? {
        try reading { session throws(StorageError) in try HistoryStatements(session: session).row(id: id) }
    }

    /// The rows of `PRAGMA integrity_check`: `["ok"]` for a healthy database (`doctor` runs its
    /// own examination).
    func integrityCheck() throws(StorageError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// The number of committed captures, as History's page gives it (kept by triggers; no count
    /// of the table).
    func historyCount() throws(StorageError) -> Int { try historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount }

    /// The photos of the capture `id` in the order they were added, as its detail lists them
    /// (none for no such capture).
    func photos(forRecord id: Int64) throws(StorageError) -> [RecordPhoto] { try recordDetail(id: id)?.photos ?? [] }
}

extension SQLiteNames {
    /// `text` in SQLite's names, its placeholders as written.
    static func camelCased(_ text: String) -> String { convert(text, positional: false).text }
}
