import Foundation
import PostgresNIO
import Storage

// A server that cannot be reached is `.unreachable` with the sentence "Cannot reach PostgreSQL
// at HOST:PORT: REASON.", so the app can tell "the server went away" from a refused statement.
extension StorageError {
    /// "Cannot reach PostgreSQL at `server`: `reason`."
    static func unreachable(_ location: PostgresLocation, reason: String) -> StorageError {
        .unreachable("Cannot reach PostgreSQL at \(location.server): \(reason).")
    }

    /// A failure while connecting: one sentence naming the server and the reason.
    static func connecting(_ error: any Error, to location: PostgresLocation) -> StorageError {
        .unreachable(location, reason: PostgresFailure.reason(error, location: location))
    }

    /// A failure of a statement on an open connection: the server's own message for an error
    /// it reported, else the connection's failure as for ``connecting(_:to:)``.
    static func statement(_ error: any Error, at location: PostgresLocation) -> StorageError {
        if let error = error as? PSQLError, error.code == .server, let message = error.serverInfo?[.message] {
            return .sql("PostgreSQL at \(location.server) refused a statement: \(PostgresFailure.sentencePart(message)).")
        }
        return .connecting(error, to: location)
    }
}

/// Turns what postgres-nio and NIO throw into lower-case phrases for a sentence.
enum PostgresFailure {
    /// Why connecting (or a statement on a connection) failed, as a phrase.
    static func reason(_ error: any Error, location: PostgresLocation) -> String {
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                let message = error.serverInfo?[.message] ?? "the server refused the connection"
                return sentencePart(message)
            case .sslUnsupported:
                return "the server does not offer TLS, which sslmode=\(location.sslMode.rawValue) requires"
            case .failedToAddSSLHandler:
                return "TLS could not be set up"
            case .authMechanismRequiresPassword:
                return "the server asks for a password and none was given (in the URL, PGPASSWORD or ~/.pgpass)"
            case .unsupportedAuthMechanism:
                return "the server asks for an authentication method tabshell does not support"
            case .saslError:
                return "the SCRAM password exchange failed"
            case .serverClosedConnection, .uncleanShutdown:
                return "the server closed the connection"
            case .clientClosedConnection:
                return "the connection was closed"
            case .connectionError:
                if let underlying = error.underlying { return reason(underlying, location: location) }
                return "the connection failed"
            default:
                return "the connection failed (\(error.code))"
            }
        }
        if let error = error as? ChannelError {
            switch error {
            case let .connectTimeout(amount):
                return "no answer within \(amount.nanoseconds / 1_000_000_000) s (connect_timeout)"
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed:
                return "the connection was closed"
            default:
                return "the connection failed (\(error))"
            }
        }
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first {
                return reason(first.error, location: location)
            }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "the host name \(hostName(location)) cannot be resolved"
            }
            return "no address of \(hostName(location)) answers"
        }
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode)).lowercased()
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return tlsReason(error, location: location)
        }
        if error is SocketAddressError {
            return "the host name \(hostName(location)) cannot be resolved"
        }
        return "\(error)"
    }

    /// NIOSSL's errors carry BoringSSL's text and source paths; the user needs what was wrong.
    private static func tlsReason(_ error: any Error, location: PostgresLocation) -> String {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            let trusted =
                switch location.trustRoots {
                case .system: "the system's trusted authorities"
                case let .file(path): "the authorities in \(path)"
                }
            return "its certificate is not signed by one of \(trusted) (sslmode=\(location.sslMode.rawValue); sslrootcert says whom to trust)"
        }
        if text.contains("failedToValidateHostname") {
            return "its certificate does not name \(hostName(location)) (sslmode=verify-full)"
        }
        return "the TLS handshake failed"
    }

    private static func hostName(_ location: PostgresLocation) -> String {
        switch location.endpoint {
        case let .tcp(host, _): host
        case let .socket(folder, _): folder
        }
    }

    /// A server message as the middle of a sentence: no final full stop.
    static func sentencePart(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
