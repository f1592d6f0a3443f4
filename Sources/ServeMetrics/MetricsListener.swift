import SSHServer

/// The endpoint's listening socket: SSHServer's ``ListeningSocket`` (close-on-exec, so a server
/// upgraded in place does not leave it open in its successor, accepting connections nobody reads
/// and holding the port the successor wants).
enum MetricsListener {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A TCP socket bound to host:port, not yet listening; a failure says "host:port: reason".
    static func bind(host: String, port: Int) throws(Failure) -> CInt {
        do {
            return try ListeningSocket.bind(host: host, port: port)
        } catch {
            guard case let .cannotListen(address, reason) = error else { throw Failure(description: error.description) }
            throw Failure(description: "\(address): \(reason)")
        }
    }
}
