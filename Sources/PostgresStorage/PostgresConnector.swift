import Logging
import PostgresNIO
import Storage

/// Opens connections to one ``PostgresLocation`` with its TLS settings: what the pool and the
/// change listener share.
struct PostgresConnector: Sendable {
    let location: PostgresLocation
    let group: any EventLoopGroup
    let logger: Logger
    private let tls: PostgresConnection.Configuration.TLS
    /// For `sslmode=allow`: the TLS setting of the second attempt, after a plain one was refused.
    private let fallbackTLS: PostgresConnection.Configuration.TLS?

    /// - Throws: ``StorageError/invalidInput(_:)`` when the TLS settings cannot be used (an
    ///   `sslrootcert` file that cannot be read…).
    init(location: PostgresLocation, eventLoopGroup: any EventLoopGroup, logger: Logger) throws(StorageError) {
        self.location = location
        self.group = eventLoopGroup
        self.logger = logger
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

    /// Opens one connection, blocking; for `sslmode=allow`, a plain one first and then one with
    /// TLS if the server refused the plain one (libpq's order).
    func connect(id: Int) throws(StorageError) -> PostgresConnection {
        do {
            do {
                return try PostgresConnection.connect(on: group.next(), configuration: configuration(tls: tls), id: id, logger: logger).wait()
            } catch let error as PSQLError where error.code == .server {
                guard let fallbackTLS else { throw error }
                return try PostgresConnection.connect(on: group.next(), configuration: configuration(tls: fallbackTLS), id: id, logger: logger).wait()
            }
        } catch {
            throw .connecting(error, to: location)
        }
    }

    /// Opens one connection without blocking, with the first TLS setting only: the readiness
    /// probe's (``PostgresProbe``), which must never hold a thread while a server is silent.
    func connecting(id: Int) async throws -> PostgresConnection {
        try await PostgresConnection.connect(on: group.next(), configuration: configuration(tls: tls), id: id, logger: logger)
    }

    /// Closes `connection` without waiting, keeping it alive until it is closed (postgres-nio
    /// asserts that a connection is closed before it goes).
    static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
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
