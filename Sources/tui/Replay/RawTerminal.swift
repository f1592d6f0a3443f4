import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Signals turned into bytes on a pipe, so a poll() loop wakes for them and handles them on its
/// own thread (replay and `--record`'s relay; the app's Terminal has its own watcher). Each
/// signal is set to "ignore" while watched (what a DispatchSource needs on Linux) and put back
/// by ``stop()``.
final class SignalPipe {
    /// Readable whenever a signal has come.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private final class Pending: Sendable {
        let signals = Mutex<[Int32]>([])
    }
    private let pending = Pending()
    private let queue = DispatchQueue(label: "tabshell.replay.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var previous: [(Int32, sigaction)] = []

    init?(_ signals: [Int32]) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return nil }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        // A blocked signal stays pending and never reaches its source.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for signal in signals {
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            sigemptyset(&ignore.sa_mask)
            var old = sigaction()
            guard sigaction(signal, &ignore, &old) == 0 else { continue }
            previous.append((signal, old))
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            let descriptor = writeDescriptor
            let pending = self.pending
            source.setEventHandler {
                pending.signals.withLock { if !$0.contains(signal) { $0.append(signal) } }
                var byte: UInt8 = 1
                _ = write(descriptor, &byte, 1)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The signals that came since the last call, in order, each once.
    func take() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
        return pending.signals.withLock { signals in
            defer { signals = [] }
            return signals
        }
    }

    func stop() {
        for source in sources { source.cancel() }
        sources = []
        for (signal, old) in previous {
            var old = old
            sigaction(signal, &old, nil)
        }
        previous = []
    }

    deinit {
        stop()
        close(readDescriptor)
        close(writeDescriptor)
    }
}

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

/// Seconds on a monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
