import Foundation
import Logging
import PostgresNIO
import Storage

/// A small pool of PostgresNIO connections to one ``PostgresLocation``, used synchronously.
///
/// **Why synchronous.** The storage API is synchronous (`throws(StorageError)` methods called
/// from the app's loop and background threads, never from async code), so this pool blocks the
/// calling thread on postgres-nio's `EventLoopFuture` API (`PostgresConnection.connect`,
/// `query`) with `wait()`. The futures complete on NIO's event loop threads, so nothing here
/// needs Swift concurrency's cooperative threads: a caller blocking one of those (a test) cannot
/// starve the pool. Never call it from an event loop thread (NIO traps on `wait()` there).
///
/// Connections are opened on demand, up to ``maximumConnections``; a caller beyond that waits
/// for one to come back. A connection that failed at the connection level, or was handed back
/// inside a transaction, is closed instead of reused. ``close()`` closes them all; a closed pool
/// refuses new work.
public final class PostgresPool: @unchecked Sendable {
    /// The store's location (its description never shows the password).
    public let location: PostgresLocation
    /// The most connections open at once.
    public let maximumConnections: Int
    /// How long a statement may go unanswered before its connection is given up (nil: no limit).
    public let answerTimeout: TimeAmount?
    private let logger: Logger
    private let connector: PostgresConnector
    /// Guards the fields below it.
    let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    /// Connections open, idle or in use.
    private(set) var openCount = 0
    private var nextID = 0
    private var isClosed = false

    /// A pool for `location`; nothing is connected until the first ``withConnection(_:)``.
    ///
    /// - Parameters:
    ///   - answerTimeout: How long a statement may wait for the server's answer. Past it the
    ///     connection is closed and the statement fails with "Cannot reach PostgreSQL at
    ///     HOST:PORT: no answer within N s." — a server that vanished without closing the
    ///     connection (a host switched off, a network that drops packets) would otherwise block
    ///     the caller for ever. Nil (the default) for no limit: a long statement of a migration
    ///     or a copy must not be cut. The app will set one when it is wired in.
    ///   - eventLoopGroup: Where connections live; NIO's shared group unless told otherwise.
    ///   - logger: For postgres-nio's own messages and the pool's (never the password).
    /// - Throws: ``StorageError/invalidInput(_:)`` when the TLS settings cannot be used (an
    ///   `sslrootcert` file that cannot be read…).
    public init(
        location: PostgresLocation, maximumConnections: Int = 8, answerTimeout: TimeAmount? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "tabshell.postgres")
    ) throws(StorageError) {
        self.location = location
        self.maximumConnections = max(1, maximumConnections)
        self.answerTimeout = answerTimeout
        self.logger = logger
        for warning in location.warnings {
            logger.warning("\(warning)")
        }
        connector = try PostgresConnector(location: location, eventLoopGroup: eventLoopGroup, logger: logger)
    }

    deinit {
        for connection in idle {
            PostgresConnector.close(connection)
        }
    }

    // MARK: - Using a connection

    /// Runs `body` with a connection of its own, then hands the connection back.
    ///
    /// - Throws: ``StorageError`` "Cannot reach PostgreSQL at HOST:PORT: REASON." when no
    ///   connection can be made, or whatever `body` throws.
    @discardableResult
    public func withConnection<T>(_ body: (PostgresSession) throws(StorageError) -> T) throws(StorageError) -> T {
        let connection = try checkOut()
        let session = PostgresSession(connection: connection, location: location, logger: logger, answerTimeout: answerTimeout)
        defer { checkIn(connection, reusable: session.isReusable) }
        return try body(session)
    }

    /// Runs `body` in one transaction (BEGIN … COMMIT) on a connection of its own; any error
    /// rolls it back. See ``PostgresSession/transaction(_:)``.
    @discardableResult
    public func transaction<T>(_ body: (PostgresSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try withConnection { session throws(StorageError) in try session.transaction(body) }
    }

    /// Closes every connection and refuses new work; callers waiting for a connection fail.
    public func close() {
        let connections = condition.withLock {
            isClosed = true
            let connections = idle
            idle = []
            openCount -= connections.count
            condition.broadcast()
            return connections
        }
        for connection in connections {
            try? connection.close().wait()
        }
    }

    // MARK: - The pool

    private func checkOut() throws(StorageError) -> PostgresConnection {
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw .unreachable(location, reason: "the connection pool was closed")
            }
            if let connection = idle.popLast() {
                if connection.isClosed {
                    openCount -= 1
                    continue
                }
                condition.unlock()
                return connection
            }
            if openCount < maximumConnections {
                openCount += 1
                nextID += 1
                let id = nextID
                condition.unlock()
                do {
                    return try connector.connect(id: id)
                } catch {
                    condition.lock()
                    openCount -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func checkIn(_ connection: PostgresConnection, reusable: Bool) {
        let kept = condition.withLock {
            defer { condition.signal() }
            guard reusable, !isClosed, !connection.isClosed else {
                openCount -= 1
                return false
            }
            idle.append(connection)
            return true
        }
        if !kept { PostgresConnector.close(connection) }
    }
}
