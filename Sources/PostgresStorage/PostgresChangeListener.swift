import Foundation
import Logging
import PostgresNIO
import Storage
import Synchronization

/// Hears the changes other sessions commit to a PostgreSQL store, without polling: a connection
/// of its own that `LISTEN`s on ``channel``, where the v1 schema's triggers announce each
/// committed change of `request`, `capture` and `settings` (once per table and transaction;
/// nothing for a transaction rolled back).
///
/// The SQLite engine polls `PRAGMA data_version` for the same purpose. Not used by the app yet:
/// it is meant to post `.databaseChangedElsewhere` to the runtime's mailbox. Handlers run on a
/// NIO event loop thread: they must only hand the news on, never block or call the pool.
public final class PostgresChangeListener: @unchecked Sendable {
    /// The channel the schema's triggers notify.
    public static let channel = "tabshell_change"

    /// One announced change.
    public struct Change: Equatable, Sendable {
        /// The table that changed: `request`, `capture` or `settings`.
        public var table: String
        /// The server process of the session that committed it (a pool's own sessions can be
        /// told apart by their `pg_backend_pid()`).
        public var backendPID: Int32
    }

    private let connection: PostgresConnection
    private let context: PostgresListenContext
    private let stopped = Mutex(false)

    /// Connects and starts listening; returns once the server has taken the `LISTEN`, so every
    /// change committed after it returns is heard.
    ///
    /// - Parameters:
    ///   - onChange: Called for each announced change, on an event loop thread.
    ///   - onLost: Called once if the connection ends without ``stop()`` (the server went
    ///     away): "Cannot reach PostgreSQL at HOST:PORT: the connection was lost." Changes are
    ///     not heard after it; a new listener must be made when the server is back.
    /// - Throws: The connection's failure as one sentence.
    public init(
        location: PostgresLocation, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "tabshell.postgres.listener"),
        onChange: @escaping @Sendable (Change) -> Void,
        onLost: @escaping @Sendable (StorageError) -> Void
    ) throws(StorageError) {
        let connector = try PostgresConnector(location: location, eventLoopGroup: eventLoopGroup, logger: logger)
        let connection = try connector.connect(id: 0)
        self.connection = connection
        context = connection.addListener(channel: Self.channel) { _, notification in
            onChange(Change(table: notification.payload, backendPID: notification.backendPID))
        }
        // postgres-nio sends LISTEN for the listener ahead of any later statement on this
        // connection: once this one is answered, the server listens.
        do {
            _ = try connection.query("SELECT 1", logger: logger).wait()
        } catch {
            context.stop()
            PostgresConnector.close(connection)
            throw .connecting(error, to: location)
        }
        connection.closeFuture.whenComplete { [weak self] _ in
            guard let self, !self.stopped.withLock({ $0 }) else { return }
            onLost(.unreachable(location, reason: "the connection was lost"))
        }
    }

    /// Stops listening and closes the connection; no handler is called after it returns. It
    /// waits for the connection to close: never call it from a handler (an event loop thread).
    public func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        context.stop()
        try? connection.close().wait()
    }

    deinit {
        stop()
    }
}
