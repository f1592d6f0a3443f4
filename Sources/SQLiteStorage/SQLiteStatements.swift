import Foundation
import GRDB
import GRDBSQLite
import Storage
import Synchronization

/// Storage's statements, written once in PostgreSQL's names, on one SQLite connection: the
/// names are turned into this schema's (``SQLiteNames``), `$1`… bound by number, and the rows
/// read through GRDB.
struct SQLiteStatements: StatementSession {
    let db: Database
    /// The database file, for sentences.
    let path: String

    var dialect: SQLDialect { .sqlite }

    func forEachRow(_ statement: StoreSQL, _ body: (any SQLRow) throws(StorageError) -> Void) throws(StorageError) {
        try statement.refuseNUL()
        do {
            let prepared = try prepared(statement)
            let rows = try Row.fetchCursor(prepared, arguments: Self.arguments(statement))
            let row = SQLiteRow(statement: prepared.sqliteStatement, path: path)
            while try rows.next() != nil {
                try body(row)
            }
        } catch {
            throw .operation(error, path: path)
        }
    }

    @discardableResult
    func execute(_ statement: StoreSQL) throws(StorageError) -> Int {
        try statement.refuseNUL()
        do {
            try prepared(statement).execute(arguments: Self.arguments(statement))
            return db.changesCount
        } catch {
            throw .operation(error, path: path)
        }
    }

    func unreadable(_ what: String) -> StorageError {
        .sql("The database \(path) holds \(what) tabshell cannot read.")
    }

    /// Prepared for this call only, as GRDB's `fetchAll(_:sql:)` does: History's statements
    /// differ by group, direction and keyset, and a connection need not keep each one. A
    /// repeated statement (a batch of the catalog's rows, the same text batch after batch) is
    /// kept by the connection: parsing its 1,000 values again cost more than running it.
    private func prepared(_ statement: StoreSQL) throws -> Statement {
        let text = SQLiteNames.of(statement.text)
        return statement.isRepeated ? try db.cachedStatement(sql: text) : try db.makeStatement(sql: text)
    }

    /// The values in order where ``SQLiteNames`` made the placeholders `?` (each of `$1`, `$2`…
    /// once, in order: how every interpolated ``StoreSQL`` is written); otherwise `$1`, `$2`…
    /// are SQLite parameters named "1", "2"…, bound by name, so a number used twice binds one
    /// value.
    static func arguments(_ statement: StoreSQL) -> StatementArguments {
        if SQLiteNames.converted(statement.text).positional {
            return StatementArguments(statement.binds.map(\.databaseValue))
        }
        var named: [String: (any DatabaseValueConvertible)?] = [:]
        for (index, value) in statement.binds.enumerated() {
            named[String(index + 1)] = value.databaseValue
        }
        return StatementArguments(named)
    }
}

extension SQLValue {
    /// The value as GRDB stores it (an instant as its `yyyy-MM-dd HH:mm:ss.SSS` text, a
    /// boolean as 0 or 1).
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case let .integer(value): value.databaseValue
        case let .real(value): value.databaseValue
        case let .text(value): value.databaseValue
        case let .time(value): value.databaseValue
        case let .boolean(value): value.databaseValue
        }
    }
}

/// The row a statement stands on, read by column position straight from SQLite (no value is
/// copied on the way): a cell of another storage class than the one asked for is unreadable,
/// as GRDB's conversions would have it (a whole real reads as an integer, a blob as UTF-8 text,
/// text as a blob's bytes; times as GRDB stores them).
struct SQLiteRow: SQLRow {
    let statement: SQLiteStatement
    let path: String

    /// The cell's storage class (`SQLITE_NULL`, `SQLITE_INTEGER`…).
    private func type(_ column: Int) throws(StorageError) -> CInt {
        guard column >= 0, column < Int(sqlite3_column_count(statement)) else { throw unreadable(column) }
        return sqlite3_column_type(statement, CInt(column))
    }

    private func unreadable(_ column: Int) -> StorageError {
        .sql("The database \(path) answered a value tabshell cannot read (column \(column + 1)).")
    }

    /// The cell's bytes, of a text or a blob.
    private func bytes(_ column: Int) -> UnsafeRawBufferPointer {
        let start = sqlite3_column_blob(statement, CInt(column))
        return UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, CInt(column))))
    }

    func integer(_ column: Int) throws(StorageError) -> Int64? {
        switch try type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(statement, CInt(column))
        case SQLITE_FLOAT:
            guard let whole = Int64(exactly: sqlite3_column_double(statement, CInt(column))) else { throw unreadable(column) }
            return whole
        default: throw unreadable(column)
        }
    }

    func real(_ column: Int) throws(StorageError) -> Double? {
        switch try type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_column_double(statement, CInt(column))
        default: throw unreadable(column)
        }
    }

    func text(_ column: Int) throws(StorageError) -> String? {
        switch try type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_TEXT:
            // Asked as text first, so SQLite's bytes are its UTF-8 and the count is theirs.
            guard let start = sqlite3_column_text(statement, CInt(column)) else { return "" }
            return String(
                decoding: UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, CInt(column)))), as: UTF8.self)
        case SQLITE_BLOB:
            guard let text = String(validating: bytes(column), as: UTF8.self) else { throw unreadable(column) }
            return text
        default: throw unreadable(column)
        }
    }

    func time(_ column: Int) throws(StorageError) -> Date? {
        guard try type(column) != SQLITE_NULL else { return nil }
        guard let date = Date(sqliteStatement: statement, index: CInt(column)) else { throw unreadable(column) }
        return date
    }

    func boolean(_ column: Int) throws(StorageError) -> Bool? {
        switch try type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(statement, CInt(column)) != 0
        case SQLITE_FLOAT: return sqlite3_column_double(statement, CInt(column)) != 0
        default: throw unreadable(column)
        }
    }

    func data(_ column: Int) throws(StorageError) -> Data? {
        switch try type(column) {
        case SQLITE_NULL: return nil
        case SQLITE_BLOB, SQLITE_TEXT: return Data(bytes(column))
        default: throw unreadable(column)
        }
    }
}

/// The SQLite schema's names for a statement written in PostgreSQL's: SQLite's tables and
/// columns have been camelCase since its first version (`createdAt`, `requestCount`), and
/// PostgreSQL's are the same words in snake_case (`created_at`, `request_count`). Every
/// lower-case identifier with an underscore outside quotes, and not a function's name (right
/// before its `(`), becomes camelCase; quoted text and keywords stay as they are, and
/// placeholders too unless they become SQLite's positional `?` (``Converted``). One table
/// has another name: PostgreSQL's `capture_photo` (a record's photos, their content apart in
/// `photo_content`) is SQLite's `photo` (the files beside the database).
enum SQLiteNames {
    /// Names that are other words on SQLite, not only other spellings.
    static let renamed = ["capture_photo": "photo"]

    /// `text` in SQLite's names and placeholders (``converted(_:)``).
    static func of(_ text: String) -> String { converted(text).text }

    /// A statement as SQLite runs it: its names SQLite's, and its placeholders `?` when they are
    /// `$1`, `$2`… once each in order (`positional`). SQLite keeps a named parameter's name in a
    /// list it walks for each lookup, and GRDB looks up every one when it prepares a statement:
    /// for the 1,000 values of a catalog batch, that took most of the import's time.
    struct Converted: Sendable {
        let text: String
        let positional: Bool
    }

    /// ``Converted`` from a cache of the statements seen (they are constant text with
    /// placeholders, a few dozen).
    static func converted(_ text: String) -> Converted {
        if let known = cache.withLock({ $0[text] }) { return known }
        let converted = convert(text)
        cache.withLock { cache in
            if cache.count >= 512 { cache.removeAll() }
            cache[text] = converted
        }
        return converted
    }

    private static let cache = Mutex<[String: Converted]>([:])

    /// `text` in SQLite's names; its placeholders outside quotes made `?` when they are `$1`,
    /// `$2`… once each in order and `positional` is asked for, as written otherwise.
    static func convert(_ text: String, positional: Bool = true) -> Converted {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        // The same text with `?` for each placeholder, while they come in order.
        var numbered: [UInt8]? = positional ? [] : nil
        numbered?.reserveCapacity(bytes.count)
        var nextPlaceholder = 1
        func emit(_ part: some Sequence<UInt8>) {
            out += part
            numbered? += part
        }
        var index = 0
        func isIdentifier(_ byte: UInt8) -> Bool {
            (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // Quoted text or a quoted name, to its closing quote (a doubled quote closes and
                // opens again).
                let end = bytes[(index + 1)...].firstIndex(of: byte).map { $0 + 1 } ?? bytes.count
                emit(bytes[index..<end])
                index = end
            case UInt8(ascii: "$"), 0x30...0x39:
                // A placeholder or a number: its digits stay.
                let end = bytes[(index + 1)...].firstIndex { !isIdentifier($0) } ?? bytes.count
                out += bytes[index..<end]
                if byte != UInt8(ascii: "$") {
                    numbered? += bytes[index..<end]
                } else if Int(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)) == nextPlaceholder {
                    nextPlaceholder += 1
                    numbered?.append(UInt8(ascii: "?"))
                } else {
                    numbered = nil
                }
                index = end
            case _ where isIdentifier(byte):
                let end = bytes[index...].firstIndex { !isIdentifier($0) } ?? bytes.count
                let word = bytes[index..<end]
                // A function's name is followed at once by its `(`; a table's column list
                // (`INSERT INTO capture_line (…)`) after a space.
                let next = end < bytes.count ? bytes[end] : nil
                if let other = renamed[String(decoding: word, as: UTF8.self)] {
                    emit(other.utf8)
                } else if word.contains(0x5F), !word.contains(where: { (0x41...0x5A).contains($0) }), next != UInt8(ascii: "(") {
                    var upper = false
                    for letter in word {
                        if letter == 0x5F {
                            upper = true
                        } else {
                            emit(CollectionOfOne(upper && (0x61...0x7A).contains(letter) ? letter - 0x20 : letter))
                            upper = false
                        }
                    }
                } else {
                    emit(word)
                }
                index = end
            default:
                emit(CollectionOfOne(byte))
                index += 1
            }
        }
        if let numbered { return Converted(text: String(decoding: numbered, as: UTF8.self), positional: true) }
        return Converted(text: String(decoding: out, as: UTF8.self), positional: false)
    }
}

extension AppDatabase: StatementStore {
    public func reading<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try read { db in try body(SQLiteStatements(db: db, path: url.path)) }
    }

    public func writing<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try write { db in try body(SQLiteStatements(db: db, path: url.path)) }
    }

    /// A read: on SQLite a snapshot costs nothing more than one statement.
    public func asking<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try reading(body)
    }
}
