import Foundation

/// A terminal descriptor's modes, raw while playing or relaying, put back however it ends.
struct RawTerminal {
    let descriptor: Int32
    private let saved: termios

    /// Nil when `descriptor` is not a terminal.
    init?(descriptor: Int32) {
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0 else { return nil }
        self.descriptor = descriptor
        self.saved = modes
    }

    func enterRaw() {
        var raw = saved
        cfmakeraw(&raw)
        tcsetattr(descriptor, TCSANOW, &raw)
    }

    func restore() {
        var modes = saved
        tcsetattr(descriptor, TCSANOW, &modes)
    }

    /// Writes all of `bytes`; false when the terminal is gone.
    @discardableResult
    static func writeAll(_ descriptor: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN {
                var descriptorPoll = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptorPoll, 1, 1000)
                continue
            }
            guard written > 0 else { return false }
            rest = rest.dropFirst(written)
        }
        return true
    }
}

/// Seconds on a monotonic clock (from the first reading).
func monotonicSeconds() -> Double { (ContinuousClock.now - monotonicOrigin) / .seconds(1) }
private let monotonicOrigin = ContinuousClock.now
