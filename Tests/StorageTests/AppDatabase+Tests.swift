import Domain
import GRDB

@testable import SQLiteStorage
@testable import Storage

/// What the storage tests ask of an SQLite store beside the app's calls.
extension AppDatabase {
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
}

extension SQLiteNames {
    /// `text` in SQLite's names, its placeholders as written.
    static func camelCased(_ text: String) -> String { convert(text, positional: false).text }
}
