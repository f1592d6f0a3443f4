import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The endpoint's listening socket, made here rather than by NIO's `bind` so that it is
/// close-on-exec: a server upgraded in place (SIGUSR2) starts its successor with `posix_spawn`,
/// and a socket NIO made would stay open in the successor, accepting connections nobody reads
/// and holding the port the successor wants (as SSHServer's `ListeningSocket` does for SSH).
enum MetricsListener {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A TCP socket bound to host:port (SO_REUSEADDR, close-on-exec), not yet listening: NIO's
    /// `withBoundSocket` makes it non-blocking and listens.
    static func bind(host: String, port: Int) throws -> CInt {
        let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        let fd = socket(CInt(address.protocol.rawValue), CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var on: CInt = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<CInt>.size))
        let bound = address.withSockAddr { Glibc.bind(fd, $0, socklen_t($1)) }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "\(host):\(port): \(reason)")
        }
        return fd
    }
}
