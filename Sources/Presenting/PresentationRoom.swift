import Foundation

/// The presenter's side: a socket named by the watch code that watchers connect to, and ONE
/// sender thread that owns every watcher's socket (non-blocking) and the listener. `publish`
/// encodes the frame once, swaps it in as the room's newest and writes a byte to a
/// non-blocking wake pipe: it touches no watcher's socket and waits on nothing the sender
/// holds. Each watcher holds at most the frame it is in the middle of sending and owes at most
/// one more, the newest: a slow or stopped watcher skips the states it missed and gets the
/// latest when it reads again, and never holds up the others.
public final class PresentationRoom: @unchecked Sendable {
    public let code: WatchCode
    public let maximumWatchers: Int
    private let socketPath: String
    private let listener: Int32
    /// `publish` and `end` write a byte here; the sender polls the other end.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let lock = NSCondition()
    /// The newest frame (its bytes, encoded once) and its number: a watcher that has sent an
    /// older number owes this one. Under `lock`.
    private var latest: Data?
    private var generation = 0
    /// The newest generation let out to the watchers, and when the first frame after it came:
    /// watchers are sent the newest ``fanOutDelay`` after that.
    private var releasedGeneration = 0
    private var heldSince = ContinuousClock.now
    /// How long a published frame waits before it goes out to the watchers: by then the
    /// presenter's own redraw has left through the server, so the watchers' sessions drawing it
    /// do not compete with the presenter's key for the cores. Frames published meanwhile
    /// replace it (newest wins), so watchers also get at most one frame per this much time.
    public let fanOutDelay: Duration
    private var watchers: [Watcher] = []
    /// The sender's deadline for the end frame, set when the presentation ends; and whether it has left.
    private var endDeadline: ContinuousClock.Instant?
    private var isFinished = false
    private let onWatchersChanged: @Sendable (Int) -> Void
    /// Held by the sender while it works; a test holds it to show `publish` never waits for it.
    let senderGate = NSLock()

    /// The default most watchers one presentation takes (serve's `--max-watchers`).
    public static let defaultMaximumWatchers = 200

    /// A frame at 60 Hz: what a watcher waits for the presenter's newest screen, at most.
    public static let defaultFanOutDelay: Duration = .milliseconds(16)

    /// Opens a room in `directory` under `code` (`serve` chooses it and keeps who may watch),
    /// or under a fresh one. `onWatchersChanged` is called (on the room's thread) with the count
    /// whenever a watcher comes or goes, or says who it is.
    public init(
        directory: PresentDirectory, code given: WatchCode? = nil, maximumWatchers: Int = defaultMaximumWatchers,
        fanOutDelay: Duration = defaultFanOutDelay, onWatchersChanged: @escaping @Sendable (Int) -> Void = { _ in }
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
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
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
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(fd)
            unlink(directory.socketPath(for: code))
            throw PresentError("The presentation could not start: \(String(cString: strerror(errno))).")
        }
        self.code = code
        self.maximumWatchers = max(0, maximumWatchers)
        self.fanOutDelay = max(.zero, fanOutDelay)
        socketPath = directory.socketPath(for: code)
        listener = fd
        wakeReader = ends[0]
        wakeWriter = ends[1]
        for end in ends { UnixSocket.makeNonBlocking(end, closeOnExec: true) }
        self.onWatchersChanged = onWatchersChanged
        let thread = Thread { [self] in sendLoop() }
        thread.name = "present-send"
        thread.stackSize = 512 << 10
        thread.start()
    }

    deinit {
        end()
    }

    /// How many watch now.
    public var watcherCount: Int { lock.withLock { watchers.count } }

    /// Who watches now, in the order they came: each watcher's name as its connection said it
    /// (`serve` gives it the person's name); "someone" until it has.
    public var watcherNames: [String] { lock.withLock { watchers.map { $0.name ?? "someone" } } }

    /// How long a new watcher has to say its name before it is listed as "someone".
    static let helloWait: Duration = .seconds(1)

    /// The presenter's newest state: every watcher is sent it (or a later one) next. Encodes the
    /// frame once for all watchers and returns without touching their sockets.
    public func publish(_ payload: Data) {
        guard let bytes = PresentFrame(.state, payload: payload).encoded() else { return }
        let published = lock.withLock {
            guard endDeadline == nil else { return false }
            // A frame already held keeps its time: the delay bounds how late the newest goes out.
            if generation == releasedGeneration { heldSince = .now }
            latest = bytes
            generation += 1
            return true
        }
        if published { wakeSender() }
    }

    /// The presentation ends: watchers are told, the code goes. Waits at most `flush` for the
    /// end frame to reach the watchers (a stopped watcher learns it from the closed socket instead).
    public func end(flush: Duration = .milliseconds(300)) {
        let ending = lock.withLock {
            guard endDeadline == nil else { return false }
            latest = PresentFrame(.ended).encoded() ?? Data()
            generation += 1
            endDeadline = ContinuousClock.now.advanced(by: flush)
            return true
        }
        guard ending else { return }
        unlink(socketPath)
        wakeSender()
        // The sender leaves by the deadline: its writes never block and its poll wakes by then.
        let limit = Date().addingTimeInterval(Double(flush.components.seconds) + Double(flush.components.attoseconds) / 1e18 + 2)
        lock.withLock {
            while !isFinished, Date() < limit {
                _ = lock.wait(until: limit)
            }
        }
    }

    // MARK: - Looking in (tests)

    /// What the room holds for each watcher: the frame it is part-way through sending (0 or 1)
    /// and whether it owes the newest (0 or 1). Never more, however far behind the watcher is.
    var heldFrames: [(sending: Int, owed: Int)] {
        lock.withLock { watchers.map { ($0.outbox == nil ? 0 : 1, $0.sentGeneration < generation ? 1 : 0) } }
    }

    /// Every descriptor the room writes to: the watchers' sockets and the wake pipe.
    var writtenDescriptors: [Int32] { lock.withLock { watchers.map(\.fd) + [wakeWriter] } }

    // MARK: - The sender

    /// One watcher's connection. `name` is read under the room's lock; the rest belongs to the
    /// sender thread alone (`heldFrames` reads it under the lock, which the sender holds while
    /// it changes them).
    private final class Watcher: @unchecked Sendable {
        let fd: Int32
        var name: String?
        /// The frame being written and how much of it is out.
        var outbox: Data?
        var written = 0
        /// The room's `generation` of the last frame taken into the outbox.
        var sentGeneration = 0
        /// Until the watcher said its name or ``helloWait`` passed.
        var hello: PresentFrameReader? = PresentFrameReader(maximumBytes: PresentFrame.maximumNameBytes + 1)
        let helloDeadline: ContinuousClock.Instant
        init(fd: Int32, helloDeadline: ContinuousClock.Instant) {
            self.fd = fd
            self.helloDeadline = helloDeadline
        }
    }

    private func wakeSender() {
        var byte: UInt8 = 1
        // A full pipe (EAGAIN) already wakes the sender: nothing to wait for.
        _ = write(wakeWriter, &byte, 1)
    }

    /// The sender thread: takes the newest frame into each idle watcher's outbox, writes what
    /// each socket takes now, and sleeps until there is more; after the end, until everyone is
    /// told or the deadline passes.
    private func sendLoop() {
        // The presenter's own loop wins a core over its watchers' sending (on Linux the nice
        // value is a thread's, and `who` 0 is the calling thread).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        var scratch = [UInt8](repeating: 0, count: 256)
        while true {
            senderGate.lock()
            lock.lock()
            let newest = latest
            let newestGeneration = generation
            let deadline = endDeadline
            let ended = deadline != nil
            // The end goes at once, and so does a newcomer's first screen; a new state waits.
            let releaseAt = heldSince.advanced(by: fanOutDelay)
            if ended || releaseAt <= .now { releasedGeneration = newestGeneration }
            let released = releasedGeneration
            let nextRelease = released < newestGeneration ? releaseAt : nil
            for watcher in watchers
            where watcher.outbox == nil && watcher.sentGeneration < newestGeneration
                && (watcher.sentGeneration < released || watcher.sentGeneration == 0)
            {
                watcher.outbox = newest
                watcher.written = 0
                watcher.sentGeneration = newestGeneration
            }
            let current = watchers
            lock.unlock()
            var leaving: [Watcher] = []
            for watcher in current where !flush(watcher) { leaving.append(watcher) }
            if ended {
                // Told (the end frame is out) or past the deadline: the watcher goes.
                let pastDeadline = deadline.map { ContinuousClock.now >= $0 } ?? true
                for watcher in current where pastDeadline || (watcher.outbox == nil && watcher.sentGeneration == newestGeneration) {
                    leaving.append(watcher)
                }
            }
            let count = remove(leaving)
            if !leaving.isEmpty, !ended { onWatchersChanged(count) }
            if ended, count == 0 {
                senderGate.unlock()
                break
            }
            // A watcher that has just finished a frame may owe a newer one: take it now, as
            // nothing else would wake the sender for it.
            let owed = lock.withLock {
                watchers.contains { $0.outbox == nil && $0.sentGeneration < generation && ($0.sentGeneration < releasedGeneration || $0.sentGeneration == 0) }
            }
            senderGate.unlock()
            if owed { continue }
            let wakeAt = [deadline, nextRelease].compactMap { $0 }.min()
            waitForWork(ended: ended, deadline: wakeAt, scratch: &scratch)
        }
        close(listener)
        close(wakeReader)
        close(wakeWriter)
        lock.withLock {
            isFinished = true
            lock.broadcast()
        }
    }

    /// Writes what the watcher's socket takes of its outbox; false when the watcher is gone.
    private func flush(_ watcher: Watcher) -> Bool {
        guard let bytes = watcher.outbox else { return true }
        let done: Bool? = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            while watcher.written < raw.count {
                let count = send(watcher.fd, base + watcher.written, raw.count - watcher.written, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return false }
                guard count > 0 else { return nil }
                watcher.written += count
            }
            return true
        }
        guard let done else { return false }
        if done {
            lock.withLock { (watcher.outbox, watcher.written) = (nil, 0) }
        }
        return true
    }

    /// Takes the watchers off the list and closes them; the count left.
    private func remove(_ leaving: [Watcher]) -> Int {
        let count = lock.withLock {
            watchers.removeAll { watcher in leaving.contains { $0 === watcher } }
            return watchers.count
        }
        var closed: Set<Int32> = []
        for watcher in leaving where closed.insert(watcher.fd).inserted { close(watcher.fd) }
        return count
    }

    /// Sleeps until a publish, a newcomer, a watcher's bytes or hang-up, room in a socket that
    /// has something to send, a hello's deadline or the end's; then deals with what came in.
    private func waitForWork(ended: Bool, deadline: ContinuousClock.Instant?, scratch: inout [UInt8]) {
        let current = lock.withLock { watchers }
        var pollers = [pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
        pollers.append(pollfd(fd: ended ? -1 : listener, events: Int16(POLLIN), revents: 0))
        var nextDeadline = deadline
        for watcher in current {
            var events = Int16(POLLIN)
            if watcher.outbox != nil { events |= Int16(POLLOUT) }
            pollers.append(pollfd(fd: watcher.fd, events: events, revents: 0))
            if watcher.hello != nil { nextDeadline = min(nextDeadline ?? watcher.helloDeadline, watcher.helloDeadline) }
        }
        var timeout: Int32 = -1
        if let nextDeadline {
            let left = ContinuousClock.now.duration(to: nextDeadline)
            timeout = left <= .zero ? 0 : Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
        }
        let ready = poll(&pollers, nfds_t(pollers.count), timeout)
        guard ready >= 0 else { return }
        senderGate.lock()
        defer { senderGate.unlock() }
        if pollers[0].revents != 0 {
            while read(wakeReader, &scratch, scratch.count) > 0 {}
        }
        var leaving: [Watcher] = []
        var named = false
        let now = ContinuousClock.now
        for (index, watcher) in current.enumerated() {
            let events = pollers[index + 2].revents
            if events & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                switch hear(watcher, scratch: &scratch) {
                case .gone: leaving.append(watcher)
                case .named: named = true
                case .nothing: break
                }
            } else if watcher.hello != nil, now >= watcher.helloDeadline {
                watcher.hello = nil
            }
        }
        var count = remove(leaving)
        if !leaving.isEmpty || named, !ended { onWatchersChanged(count) }
        if pollers[1].revents != 0, !ended, let joined = acceptNewcomers(now: now) {
            count = joined
            onWatchersChanged(count)
        }
    }

    private enum Heard { case nothing, named, gone }

    /// Reads what a watcher sent: its hello (its name), else nothing more is expected, so
    /// readable means it closed (or broke the protocol): either way it goes.
    private func hear(_ watcher: Watcher, scratch: inout [UInt8]) -> Heard {
        guard var reader = watcher.hello else { return .gone }
        let count = recv(watcher.fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
        if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return .nothing }
        guard count > 0, let frames = try? reader.append(Data(scratch[0..<count])) else { return .gone }
        guard let frame = frames.first else {
            watcher.hello = reader
            return .nothing
        }
        watcher.hello = nil
        guard frame.kind == .hello, let name = PresentFrame.name(from: frame.payload) else { return .nothing }
        lock.withLock { watcher.name = name }
        return .named
    }

    /// Takes every waiting connection: a watcher each, up to the limit (the rest are told the
    /// room is full). The count after, or nil when no one joined.
    private func acceptNewcomers(now: ContinuousClock.Instant) -> Int? {
        var joined: Int?
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return joined
            }
            UnixSocket.makeNonBlocking(fd, closeOnExec: true)
            lock.lock()
            guard watchers.count < maximumWatchers else {
                lock.unlock()
                // Five bytes into an empty socket buffer: taken at once (never waited for).
                if let full = PresentFrame(.full).encoded() { _ = full.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
                close(fd)
                continue
            }
            watchers.append(Watcher(fd: fd, helloDeadline: now.advanced(by: Self.helloWait)))
            joined = watchers.count
            lock.unlock()
            // The newcomer is sent the newest frame on the next pass.
            wakeSender()
        }
    }
}
