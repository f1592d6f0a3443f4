import Storage

/// `db copy` reads an SQLite store with Storage's ``StatementStore/readForCopy(_:settings:request:record:product:)``.
extension AppDatabase: CopySource {}
