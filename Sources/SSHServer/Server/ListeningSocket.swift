import Glibc
import NIOCore

/// The server's listening socket as a descriptor the server owns, so that an upgrade can hand
/// the very same socket to the process that follows (``SSHServer/listenerDescriptor``): no
/// moment without a listener, and connections waiting in its backlog are kept. Made here rather
/// than by NIO's `bind` so that it is close-on-exec (a successor started with `posix_spawn` must
/// not hold it unless handed it); `serve --metrics` makes its endpoint's the same way.
public enum ListeningSocket {
    /// A new TCP socket bound to host:port (SO_REUSEADDR, close-on-exec), not yet listening:
    /// NIO's `withBoundSocket` makes it non-blocking and listens.
    public static func bind(host: String, port: Int) throws(SSHServerError) -> CInt {
        let named = "\(host):\(port)"
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw .cannotListen(address: named, reason: "\(error)")
        }
        let fd = socket(CInt(address.protocol.rawValue), CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(address: named, reason: String(cString: strerror(errno))) }
        var on: CInt = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<CInt>.size))
        let bound = address.withSockAddr { Glibc.bind(fd, $0, socklen_t($1)) }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .cannotListen(address: named, reason: reason)
        }
        return fd
    }

    /// Whether `fd` is a stream socket listening for connections (SO_ACCEPTCONN): what a
    /// handed-over descriptor must be before the server takes it.
    static func isListening(_ fd: CInt) -> Bool {
        var accepting: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 else { return false }
        return accepting == 1
    }
}
