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
    private let group: any EventLoopGroup
    private let logger: Logger
    private let tls: PostgresConnection.Configuration.TLS
    /// For `sslmode=allow`: the TLS setting of the second attempt, after a plain one was refused.
    private let fallbackTLS: PostgresConnection.Configuration.TLS?
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var openCount = 0
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
        self.group = eventLoopGroup
        self.logger = logger
        for warning in location.warnings {
            logger.warning("\(warning)")
        }
        do {
            switch location.sslMode {
            case .disable:
                tls = .disable
                fallbackTLS = nil
            case .allow:
                tls = .disable
                fallbackTLS = try Self.context(.allow, location).map { .prefer($0) }
            case .prefer:
                tls = try Self.context(.prefer, location).map { .prefer($0) } ?? .disable
                fallbackTLS = nil
            case .require, .verifyCA, .verifyFull:
                tls = try Self.context(location.sslMode, location).map { .require($0) } ?? .disable
                fallbackTLS = nil
            }
        } catch {
            throw .invalidInput(
                "The TLS settings for PostgreSQL at \(location.server) cannot be used: \(PostgresFailure.reason(error, location: location)).")
        }
    }

    private static func context(_ mode: PostgresSSLMode, _ location: PostgresLocation) throws -> NIOSSLContext? {
        guard let configuration = mode.tlsConfiguration(roots: location.trustRoots) else { return nil }
        return try NIOSSLContext(configuration: configuration)
    }

    deinit {
        for connection in idle {
            connection.close().whenComplete { _ in }
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
        do {
            let result = try body(session)
            checkIn(connection, reusable: session.isReusable)
            return result
        } catch {
            checkIn(connection, reusable: session.isReusable)
            throw error
        }
    }

    /// Runs `body` in one transaction (BEGIN … COMMIT) on a connection of its own; any error
    /// rolls it back. See ``PostgresSession/transaction(_:)``.
    @discardableResult
    public func transaction<T>(_ body: (PostgresSession) throws(StorageError) -> T) throws(StorageError) -> T {
        try withConnection { session throws(StorageError) in try session.transaction(body) }
    }

    /// Closes every connection and refuses new work; callers waiting for a connection fail.
    public func close() {
        condition.lock()
        isClosed = true
        let connections = idle
        idle = []
        openCount -= connections.count
        condition.broadcast()
        condition.unlock()
        for connection in connections {
            try? connection.close().wait()
        }
    }

    /// How many connections are open (idle or in use).
    public var openConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
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
                    return try connect(id: id)
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
        condition.lock()
        if reusable, !isClosed, !connection.isClosed {
            idle.append(connection)
            condition.signal()
            condition.unlock()
            return
        }
        openCount -= 1
        condition.signal()
        condition.unlock()
        connection.close().whenComplete { _ in }
    }

    /// Opens one connection; for `sslmode=allow`, a plain one first and then one with TLS if
    /// the server refused the plain one (libpq's order).
    private func connect(id: Int) throws(StorageError) -> PostgresConnection {
        do {
            return try PostgresConnection.connect(
                on: group.next(), configuration: configuration(tls: tls), id: id, logger: logger
            ).wait()
        } catch {
            if let fallbackTLS, let error = error as? PSQLError, error.code == .server {
                do {
                    return try PostgresConnection.connect(
                        on: group.next(), configuration: configuration(tls: fallbackTLS), id: id, logger: logger
                    ).wait()
                } catch {
                    throw .connecting(error, to: location)
                }
            }
            throw .connecting(error, to: location)
        }
    }

    private func configuration(tls: PostgresConnection.Configuration.TLS) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch location.endpoint {
        case let .tcp(host, port):
            configuration = .init(
                host: host, port: port, username: location.user, password: location.password, database: location.database,
                tls: tls)
        case let .socket(folder, port):
            configuration = .init(
                unixSocketPath: folder + "/.s.PGSQL.\(port)", username: location.user, password: location.password,
                database: location.database)
        }
        configuration.options.connectTimeout = .seconds(Int64(location.connectTimeoutSeconds))
        if let name = location.applicationName {
            configuration.options.additionalStartupParameters.append(("application_name", name))
        }
        return configuration
    }
}
