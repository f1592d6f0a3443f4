import Foundation

/// Plain TCP on 127.0.0.1, for what ssh is not: a free port, a silent half-open client.
final class LoopbackSocket: @unchecked Sendable {
    let descriptor: Int32

    /// Connects to 127.0.0.1:port from `source` (any 127.x.y.z is this machine too); nil when
    /// nothing listens there.
    init?(connectingTo port: Int, from source: String = "127.0.0.1") {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var local = Self.loopback(port: 0, host: source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        var address = Self.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    /// Waits up to `timeout` for bytes or the end; true when the peer closed the connection.
    func peerClosed(within timeout: Duration) -> Bool {
        var timeval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 1024)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0, errno != EINTR, errno != EAGAIN { return true }
        }
        return false
    }

    deinit {
        close(descriptor)
    }

    /// A port nothing listens on right now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: Int, host: String = "127.0.0.1") -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }
}
