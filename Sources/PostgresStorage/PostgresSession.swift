import Foundation
import Logging
import PostgresNIO
import Storage

/// One connection lent by ``PostgresPool/withConnection(_:)`` for the length of a closure:
/// blocking statements, each failure one ``StorageError`` sentence.
///
/// Statements go through postgres-nio's extended protocol, one statement per call, with
/// values bound (never spliced into the SQL).
public final class PostgresSession {
    private let connection: PostgresConnection
    /// Where the connection goes, for sentences.
    public let location: PostgresLocation
    private let logger: Logger
    private let answerTimeout: TimeAmount?
    private var inTransaction = false
    private var broken = false

    init(connection: PostgresConnection, location: PostgresLocation, logger: Logger, answerTimeout: TimeAmount?) {
        self.connection = connection
        self.location = location
        self.logger = logger
        self.answerTimeout = answerTimeout
    }

    /// Whether the pool may lend the connection again: not after a failure of the connection
    /// itself, nor inside a transaction.
    var isReusable: Bool { !broken && !inTransaction && !connection.isClosed }

    /// The rows `query` returns.
    @discardableResult
    public func rows(_ query: PostgresQuery) throws(StorageError) -> [PostgresRow] {
        try run(query).rows
    }

    /// Runs `query` and returns how many rows it inserted, updated or deleted (0 for others).
    @discardableResult
    public func execute(_ query: PostgresQuery) throws(StorageError) -> Int {
        try run(query).metadata.rows ?? 0
    }

    /// The first column of the first row as `T`, or nil when there is no row (or it is NULL).
    public func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) throws(StorageError) -> T? {
        guard let row = try rows(query).first, let cell = row.first(where: { _ in true }), cell.bytes != nil else {
            return nil
        }
        do {
            return try cell.decode(T.self)
        } catch {
            throw .sql("PostgreSQL at \(location.server) answered a value tabshell cannot read (\(cell.columnName)).")
        }
    }

    /// Runs `body` between BEGIN and COMMIT; if it throws (or COMMIT fails) the transaction is
    /// rolled back and the error rethrown. Transactions do not nest.
    @discardableResult
    public func transaction<T>(_ body: (PostgresSession) throws(StorageError) -> T) throws(StorageError) -> T {
        precondition(!inTransaction, "PostgreSQL transactions do not nest.")
        try execute("BEGIN")
        inTransaction = true
        do {
            let result = try body(self)
            try execute("COMMIT")
            inTransaction = false
            return result
        } catch {
            if !broken, !connection.isClosed {
                do {
                    try execute("ROLLBACK")
                    inTransaction = false
                } catch {
                    broken = true
                }
            }
            throw error
        }
    }

    private func run(_ query: PostgresQuery) throws(StorageError) -> PostgresQueryResult {
        // The answer is waited for through a promise of our own, which the statement's future,
        // the connection's end or the deadline completes, whichever comes first: a statement
        // sent as the server died can leave postgres-nio's future pending for ever (seen when
        // the server was SIGKILLed between statements), and a server that stops answering (a
        // network that drops packets) would leave it pending too.
        let answer = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
        connection.query(query, logger: logger).cascade(to: answer)
        connection.closeFuture.whenComplete { _ in answer.fail(ConnectionEnded()) }
        let deadline = answerTimeout.map { timeout in
            connection.eventLoop.scheduleTask(in: timeout) { [connection] in
                answer.fail(NoAnswer())
                let _: EventLoopFuture<Void> = connection.close()
            }
        }
        defer { deadline?.cancel() }
        do {
            return try answer.futureResult.wait()
        } catch {
            if error is NoAnswer, let timeout = answerTimeout {
                broken = true
                throw .unreachable(location, reason: "no answer within \(Self.seconds(timeout))")
            }
            // After a server's error the connection is fine; only this statement (and any
            // transaction) failed.
            if (error as? PSQLError)?.code != .server { broken = true }
            if error is ConnectionEnded { throw .unreachable(location, reason: "the connection was lost") }
            throw .statement(error, at: location)
        }
    }

    /// The connection ended before the statement's answer came.
    private struct ConnectionEnded: Error {}
    /// The answer timeout passed first (the connection is then given up).
    private struct NoAnswer: Error {}

    /// "30 s", "0.5 s".
    static func seconds(_ amount: TimeAmount) -> String {
        let milliseconds = amount.nanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}

extension PostgresQuery {
    /// `sql` with `$1`, `$2`… bound to `values` in order: values travel beside the SQL, never
    /// inside its text (the SQL-interpolation check, Tests/StorageTests/SQLSafetyTests, reads
    /// this module too).
    public static func bound(_ sql: String, _ values: any PostgresDynamicTypeEncodable...) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            bindings.append(value)
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
