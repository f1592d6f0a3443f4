import CPty
import ChildProcess
import Foundation

/// An upgrade without dropping anyone: the running server starts the binary now installed at its
/// own path with the same arguments, hands it the listening socket (descriptor 3) and a pipe
/// (descriptor 4) on which the new server says it is ready; only then does the old one stop
/// accepting, and it keeps its running sessions until they end. docs/operating.md.
public enum ServeUpgrade {
    /// The variables that tell a starting server it follows another: which descriptor is the
    /// listening socket, and which one to say "ready" on.
    public static let listenerVariable = "TABSHELL_LISTEN_FD"
    public static let readyVariable = "TABSHELL_READY_FD"
    static let listenerDescriptor: CInt = 3
    static let readyDescriptor: CInt = 4
    static let readyWord = "ready\n"

    /// What a starting server was handed, read (and removed) from its environment, so that no
    /// session it starts sees it. Nil when it starts on its own.
    public struct Handed: Sendable {
        public let listener: CInt
        public let ready: CInt?
        /// The server being upgraded (this process's parent when it started).
        public let predecessor: pid_t
    }

    public static func handed() -> Handed? {
        let environment = ProcessInfo.processInfo.environment
        defer {
            unsetenv(listenerVariable)
            unsetenv(readyVariable)
        }
        guard let text = environment[listenerVariable], let listener = CInt(text), listener > 2 else { return nil }
        let ready = environment[readyVariable].flatMap { CInt($0) }.flatMap { $0 > 2 ? $0 : nil }
        if let ready { _ = fcntl(ready, F_SETFD, FD_CLOEXEC) }
        return Handed(listener: listener, ready: ready, predecessor: getppid())
    }

    /// Tells the server being upgraded that this one listens now (and closes the pipe).
    public static func sayReady(_ handed: Handed) {
        guard let fd = handed.ready else { return }
        _ = readyWord.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    /// A started successor, not yet known to be ready.
    public struct Successor: Sendable {
        public let pid: pid_t
        let readyPipe: CInt

        /// Waits until the successor says it is ready (true), or exits, closes the pipe or is not
        /// ready within `limit` (false: it is then stopped with SIGTERM and reaped). The pipe is
        /// closed either way.
        public func waitUntilReady(limit: Duration) -> Bool {
            defer { close(readyPipe) }
            let deadline = ContinuousClock.now + limit
            var said = [UInt8]()
            while ContinuousClock.now < deadline {
                let left = deadline - ContinuousClock.now
                let milliseconds = CInt(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
                var poller = pollfd(fd: readyPipe, events: Int16(POLLIN), revents: 0)
                let polled = poll(&poller, 1, max(1, milliseconds))
                if polled < 0, errno == EINTR { continue }
                guard polled > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 16)
                let count = read(readyPipe, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                said += buffer[0..<count]
                if said.count >= readyWord.utf8.count {
                    if String(decoding: said, as: UTF8.self).hasPrefix(readyWord) {
                        reapWhenItEnds()
                        return true
                    }
                    break
                }
            }
            kill(pid, SIGTERM)
            reapWhenItEnds()
            return false
        }

        /// The successor is this process's child until this one exits: a thread waits for it,
        /// so that it never lingers as a zombie if it ends first.
        private func reapWhenItEnds() {
            let pid = self.pid
            Thread.detachNewThread {
                var status: CInt = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
        }
    }

    public struct SpawnError: Error, Sendable {
        public let reason: String
    }

    /// Starts `executable` with `arguments` (argv[1...]) and this process's environment, the
    /// listening socket as descriptor 3 and the ready pipe's writing end as descriptor 4, every
    /// other descriptor of this process closed (its connections, terminals and the metrics socket
    /// stay this process's alone) and every signal at its default, as a freshly started server
    /// has them (CPty's `cpty_spawn_handing`).
    public static func start(executable: String, arguments: [String], listener: CInt) throws(SpawnError) -> Successor {
        var pipeEnds: [CInt] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw SpawnError(reason: String(cString: strerror(errno))) }
        // Sessions' children close every descriptor above 2 themselves; these close on exec too.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var environment = ProcessInfo.processInfo.environment
        environment[listenerVariable] = String(listenerDescriptor)
        environment[readyVariable] = String(readyDescriptor)
        let words = [executable] + arguments
        let entries = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let handed: [CInt] = [listener, pipeEnds[1]]
        let spawned = withCStringArray(words) { argv in
            withCStringArray(entries) { envp in cpty_spawn_handing(executable, argv, envp, handed, CInt(handed.count), &pid) }
        }
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw SpawnError(reason: String(cString: strerror(spawned)))
        }
        return Successor(pid: pid, readyPipe: pipeEnds[0])
    }
}

/// systemd's notification protocol (sd_notify(3)): a datagram of `KEY=value` lines to the socket
/// named by NOTIFY_SOCKET, for a unit of Type=notify. Nothing happens without NOTIFY_SOCKET.
public enum ServiceManager {
    /// Sends `state` (e.g. "READY=1\nMAINPID=1234"); false when there is no manager or it failed.
    @discardableResult
    public static func notify(_ state: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard var path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
        // An abstract socket is named with a leading @, a NUL on the wire.
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let offset = abstract ? 1 : 0
        guard bytes.count + offset < capacity, path.first == "/" || abstract else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index + offset] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + bytes.count + (abstract ? 0 : 1))
        let fd = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let sent = state.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, text, strlen(text), CInt(MSG_NOSIGNAL), $0, length) }
            }
        }
        return sent >= 0
    }
}
