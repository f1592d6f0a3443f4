import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The presenter's side: a socket named by the watch code that watchers connect to, and one
/// writer thread per watcher holding at most one frame — the newest. `publish` only swaps that
/// frame in and signals, so the presenter never waits on a watcher: a slow or stopped one skips
/// the states it missed and gets the latest when it reads again.
public final class PresentationRoom: @unchecked Sendable {
    public let code: WatchCode
    public let maximumWatchers: Int
    private let socketPath: String
    private let listener: Int32
    private let lock = NSCondition()
    private var latest: Data?
    private var watchers: [Watcher] = []
    private var isEnded = false
    private let onWatchersChanged: @Sendable (Int) -> Void

    /// The default most watchers one presentation takes (serve's `--max-watchers`).
    public static let defaultMaximumWatchers = 200

    /// Opens a room in `directory` under `code` (`serve` chooses it and keeps who may watch),
    /// or under a fresh one. `onWatchersChanged` is called (on a room thread) with the count
    /// whenever a watcher comes or goes, or says who it is.
    public init(
        directory: PresentDirectory, code given: WatchCode? = nil, maximumWatchers: Int = defaultMaximumWatchers,
        onWatchersChanged: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws(PresentError) {
        try directory.prepare()
        var generator = SystemRandomNumberGenerator()
        var opened: (WatchCode, Int32)?
        for _ in 0..<(given == nil ? 64 : 1) {
            let code = given ?? WatchCode.random(using: &generator)
            let path = directory.socketPath(for: code)
            // A live presentation answers; a socket left by one that crashed does not, and goes.
            if let fd = UnixSocket.connect(to: path) {
                close(fd)
                continue
            }
            unlink(path)
            guard var address = UnixSocket.address(path) else { throw PresentError("The presentations folder's path is too long.") }
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { break }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if bound == 0, listen(fd, 64) == 0 {
                chmod(path, 0o600)
                opened = (code, fd)
                break
            }
            close(fd)
        }
        guard let (code, fd) = opened else {
            throw PresentError("No watch code could be opened in \(directory.path): \(String(cString: strerror(errno))).")
        }
        self.code = code
        self.maximumWatchers = max(0, maximumWatchers)
        socketPath = directory.socketPath(for: code)
        listener = fd
        self.onWatchersChanged = onWatchersChanged
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "present-accept"
        thread.start()
    }

    deinit {
        end()
    }

    /// How many watch now.
    public var watcherCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return watchers.count
    }

    /// Who watches now, in the order they came: each watcher's name as its connection said it
    /// (`serve` gives it the person's name); "someone" until it has.
    public var watcherNames: [String] {
        lock.lock()
        defer { lock.unlock() }
        return watchers.map { $0.name ?? "someone" }
    }

    /// How long a new watcher has to say its name before it is listed as "someone".
    static let helloWait: Int32 = 1000

    /// The presenter's newest state: every watcher is sent it (or a later one) next.
    public func publish(_ payload: Data) {
        guard let bytes = PresentFrame(.state, payload: payload).encoded() else { return }
        lock.lock()
        latest = bytes
        for watcher in watchers { watcher.pending = bytes }
        lock.broadcast()
        lock.unlock()
    }

    /// The presentation ends: watchers are told, the code goes. Waits at most `flush` for the
    /// watchers' writers to say so (a stopped watcher learns it from the closed socket instead).
    public func end(flush: Duration = .milliseconds(300)) {
        lock.lock()
        guard !isEnded else {
            lock.unlock()
            return
        }
        isEnded = true
        let ended = PresentFrame(.ended).encoded() ?? Data()
        for watcher in watchers { watcher.pending = ended }
        lock.broadcast()
        lock.unlock()
        unlink(socketPath)
        // Only the accept thread closes the listener, as it leaves: closed here, its number could
        // be handed to another socket before that thread calls accept on it again.
        shutdown(listener, Int32(SHUT_RDWR))
        let deadline = ContinuousClock.now.advanced(by: flush)
        lock.lock()
        while !watchers.isEmpty, ContinuousClock.now < deadline {
            _ = lock.wait(until: Date().addingTimeInterval(0.02))
        }
        // Under the lock: a writer closes its socket only once it is off the list.
        for watcher in watchers { shutdown(watcher.fd, Int32(SHUT_RDWR)) }
        lock.unlock()
    }

    // MARK: - Threads

    private final class Watcher: @unchecked Sendable {
        let fd: Int32
        var pending: Data?
        var name: String?
        init(fd: Int32, pending: Data?) {
            self.fd = fd
            self.pending = pending
        }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            lock.lock()
            if isEnded {
                lock.unlock()
                close(fd)
                return
            }
            guard watchers.count < maximumWatchers else {
                lock.unlock()
                if let full = PresentFrame(.full).encoded() { _ = UnixSocket.writeAll(fd, full) }
                close(fd)
                continue
            }
            let watcher = Watcher(fd: fd, pending: latest)
            watchers.append(watcher)
            let count = watchers.count
            lock.unlock()
            onWatchersChanged(count)
            let thread = Thread { [self] in writeLoop(watcher) }
            thread.name = "present-watcher"
            // A session's memory limit counts address space: 200 writers at the default 8 MiB
            // stack each would take it all. A writer needs little.
            thread.stackSize = 256 << 10
            thread.start()
        }
    }

    /// Sends the watcher its newest frame whenever there is one, until it leaves or the room ends.
    private func writeLoop(_ watcher: Watcher) {
        if let name = Self.readHello(watcher.fd) {
            lock.lock()
            watcher.name = name
            let count = watchers.count
            lock.unlock()
            onWatchersChanged(count)
        }
        var open = true
        while open {
            lock.lock()
            while watcher.pending == nil {
                if !lock.wait(until: Date().addingTimeInterval(0.5)) {
                    // Quiet: has the watcher gone (its end of the socket closed)?
                    if Self.peerLeft(watcher.fd) { break }
                }
            }
            let bytes = watcher.pending
            watcher.pending = nil
            let ending = isEnded
            lock.unlock()
            guard let bytes else { break }
            open = UnixSocket.writeAll(watcher.fd, bytes) && !ending
        }
        lock.lock()
        watchers.removeAll { $0 === watcher }
        let count = watchers.count
        let ended = isEnded
        lock.broadcast()
        lock.unlock()
        close(watcher.fd)
        if !ended { onWatchersChanged(count) }
    }

    /// The watcher's first frame, its name (``PresentFrame/Kind/hello``), waited for at most
    /// ``helloWait``; nil when none came or it is not one.
    private static func readHello(_ fd: Int32) -> String? {
        var reader = PresentFrameReader(maximumBytes: PresentFrame.maximumNameBytes + 1)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(helloWait)))
        var buffer = [UInt8](repeating: 0, count: 64)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, helloWait) > 0 else { return nil }
            // One frame's bytes at most: what follows (nothing, from a watcher) is left unread.
            let count = recv(fd, &buffer, 1, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            guard let frames = try? reader.append(Data(buffer[0..<count])) else { return nil }
            if let frame = frames.first {
                guard frame.kind == .hello else { return nil }
                return PresentFrame.name(from: frame.payload)
            }
        }
        return nil
    }

    /// The watcher sends nothing; readable means it closed (or broke the protocol): either way it goes.
    private static func peerLeft(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN) | Int16(POLLHUP), revents: 0)
        return poll(&poller, 1, 0) > 0
    }
}
