import Foundation
import PostgresNIO
import Storage

/// Storage's statements, written once in this schema's names, on one PostgreSQL connection:
/// run as written, `$1`… bound to their values.
struct PostgresStatements: StatementSession {
    let session: PostgresSession

    var dialect: SQLDialect { .postgres }

    func forEachRow(_ statement: StoreSQL, _ body: (any SQLRow) throws(StorageError) -> Void) throws(StorageError) {
        try statement.refuseNUL()
        let location = session.location
        for row in try session.rows(Self.query(statement)) {
            try body(PostgresSQLRow(cells: row.makeRandomAccess(), location: location))
        }
    }

    @discardableResult
    func execute(_ statement: StoreSQL) throws(StorageError) -> Int {
        try statement.refuseNUL()
        return try session.execute(Self.query(statement))
    }

    func unreadable(_ what: String) -> StorageError {
        PostgresRows.unreadable(what, session.location)
    }

    static func query(_ statement: StoreSQL) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: statement.binds.count)
        for value in statement.binds {
            switch value {
            case .null: bindings.appendNull()
            case let .integer(number): bindings.append(number)
            case let .real(number): bindings.append(number)
            case let .text(text): bindings.append(text)
            case let .time(date): bindings.append(date)
            case let .boolean(flag): bindings.append(flag)
            }
        }
        return PostgresQuery(unsafeSQL: statement.text, binds: bindings)
    }
}

/// A row postgres-nio read, by column position.
struct PostgresSQLRow: SQLRow {
    let cells: PostgresRandomAccessRow
    let location: PostgresLocation

    private func cell<T: PostgresDecodable>(_ column: Int, as type: T.Type) throws(StorageError) -> T? {
        guard column < cells.count else { throw unreadable(column) }
        let cell = cells[column]
        guard cell.bytes != nil else { return nil }
        do {
            return try cell.decode(T.self)
        } catch {
            throw unreadable(column)
        }
    }

    private func unreadable(_ column: Int) -> StorageError {
        .sql("PostgreSQL at \(location.server) answered a value tabshell cannot read (column \(column + 1)).")
    }

    func integer(_ column: Int) throws(StorageError) -> Int64? { try cell(column, as: Int64.self) }
    func real(_ column: Int) throws(StorageError) -> Double? { try cell(column, as: Double.self) }
    func text(_ column: Int) throws(StorageError) -> String? { try cell(column, as: String.self) }
    func time(_ column: Int) throws(StorageError) -> Date? { try cell(column, as: Date.self) }
    func boolean(_ column: Int) throws(StorageError) -> Bool? { try cell(column, as: Bool.self) }
    func data(_ column: Int) throws(StorageError) -> Data? { try cell(column, as: Data.self) }
}

extension PostgresStore: StatementStore {
    /// A snapshot: REPEATABLE READ, read only.
    public func reading<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try read { session throws(StorageError) in try body(PostgresStatements(session: session)) }
    }

    public func writing<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try write { session throws(StorageError) in try body(PostgresStatements(session: session)) }
    }

    /// One statement on a connection of the pool, without BEGIN and COMMIT.
    public func asking<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try query { session throws(StorageError) in try body(PostgresStatements(session: session)) }
    }
}
