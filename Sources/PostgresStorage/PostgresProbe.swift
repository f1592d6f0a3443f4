import Logging
import NIOPosix
import PostgresNIO
import Storage
import Synchronization

/// Whether a PostgreSQL server answers `SELECT 1` (`serve --metrics`' readiness): on one
/// connection of its own, kept between probes and made again after a failure, on an event loop
/// of its own, so a silent server holds nothing of anyone else's. A probe may wait as long as
/// the server is silent; whoever calls it bounds the wait (the caller's deadline, not the
/// probe's, says "unreachable").
public final class PostgresProbe: Sendable {
    private let connector: PostgresConnector
    private let group: MultiThreadedEventLoopGroup
    private let connection = Mutex<PostgresConnection?>(nil)
    private let logger: Logger

    public init(location: PostgresLocation, logger: Logger) throws(StorageError) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            connector = try PostgresConnector(location: location, eventLoopGroup: group, logger: logger)
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.group = group
        self.logger = logger
    }

    /// True when the server answered; false when it refused or the connection failed (the
    /// connection is then closed, and the next probe makes a new one).
    public func answers() async -> Bool {
        do {
            let open: PostgresConnection
            if let held = connection.withLock({ $0 }), !held.isClosed {
                open = held
            } else {
                open = try await connector.connecting(id: 0)
                connection.withLock { $0 = open }
            }
            let rows = try await open.query("SELECT 1", logger: logger)
            for try await _ in rows {}
            return true
        } catch {
            if let failed = takeConnection() { PostgresConnector.close(failed) }
            return false
        }
    }

    /// Closes the connection and the event loop; the probe answers false afterwards.
    public func close() {
        if let held = takeConnection() { PostgresConnector.close(held) }
        group.shutdownGracefully { _ in }
    }

    /// The held connection, no longer held.
    private func takeConnection() -> PostgresConnection? {
        connection.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}
