import CPty
import ChildProcess
import Foundation
import Logging
import NIOConcurrencyHelpers

/// A warmed copy of the session program that terminal sessions are forked from (CPty's
/// SessionTemplate.c): started once, it has mapped its libraries and relocated the binary's data,
/// so each session shares those pages with it copy-on-write instead of rebuilding them, and
/// starts without the loader's work. The template runs no Swift code and keeps no state of its
/// own; every session gets its arguments, environment, directory, memory limit and terminal with
/// its request, as an exec'd child would.
///
/// A session is the template's grandchild, handed to this process (a child subreaper), so it is
/// waited for like any child. A template that stops answering is replaced; when none can be
/// started, sessions are exec'd as before.
public final class SessionTemplate: Sendable {
    /// The program the template is a copy of: only sessions that run it are forked.
    public let executablePath: String
    private let logger: Logger

    private struct Running {
        var socket: CInt
        var pid: pid_t
    }

    private struct State {
        var running: Running?
        var started = 0
        var forked = 0
        /// Templates that could not start or stopped answering since the last session forked.
        var failures = 0
    }

    static let failuresBeforeGivingUp = 3

    private let state = NIOLockedValueBox(State())

    /// Starts the template; nil (with the reason logged) when this system cannot have one.
    public init?(executablePath: String, logger: Logger) {
        self.executablePath = executablePath
        self.logger = logger
        guard state.withLockedValue({ start(&$0) }) else { return nil }
        // Sessions are the template's grandchildren: this process must be the one they come to.
        let reaper = cpty_become_subreaper()
        guard reaper == 0 else {
            logger.notice("sessions are exec'd: no session template", metadata: ["reason": "\(String(cString: strerror(reaper)))"])
            stop()
            return nil
        }
        ChildReaper.startSweeping()
    }

    /// The template's pid (nil while none runs), and how many were started and sessions forked.
    public var status: (pid: pid_t?, started: Int, forked: Int) {
        state.withLockedValue { ($0.running?.pid, $0.started, $0.forked) }
    }

    /// Stops the template (it also ends with this process).
    public func stop() {
        state.withLockedValue { state in
            if let running = state.running { Self.end(running) }
            state.running = nil
        }
    }

    /// A session on `terminal` (the slave side; the caller closes it): its pid, or nil when no
    /// template answers or the request is larger than a template takes (the caller execs the
    /// session instead). A session the template forked
    /// but could not set up is reaped here and reported as the error.
    func fork(
        argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, envp: UnsafePointer<UnsafeMutablePointer<CChar>?>,
        cwd: UnsafePointer<CChar>?, memoryLimit: CUnsignedLongLong, terminal: CInt
    ) throws(ChildSpawner.SpawnError) -> pid_t? {
        // Two tries: the running template, then (when it did not answer) a new one.
        for _ in 0..<2 {
            let outcome: Result<pid_t, ChildSpawner.SpawnError>? = state.withLockedValue { state in
                if state.running == nil {
                    // A template that keeps failing is not started again for every session.
                    guard state.failures < Self.failuresBeforeGivingUp else { return nil }
                    if !start(&state) { failed(&state) }
                }
                guard let running = state.running else { return nil }
                var pid: pid_t = 0
                var transportFailed: CInt = 0
                let error = cpty_template_request(
                    running.socket, terminal, UnsafeMutablePointer(mutating: argv), UnsafeMutablePointer(mutating: envp), cwd,
                    memoryLimit, &pid, &transportFailed)
                if transportFailed == 2 { return .success(-1) }
                if transportFailed != 0 {
                    logger.warning("the session template stopped answering; starting another", metadata: ["pid": "\(running.pid)"])
                    Self.end(running)
                    state.running = nil
                    failed(&state)
                    return nil
                }
                if error != 0 {
                    if pid > 0 { Self.reap(pid) }
                    return .failure(ChildSpawner.SpawnError(code: error))
                }
                state.forked += 1
                state.failures = 0
                return .success(pid)
            }
            // -1: the request is larger than a template takes.
            if let pid = try outcome?.get() { return pid > 0 ? pid : nil }
        }
        return nil
    }

    private func failed(_ state: inout State) {
        state.failures += 1
        if state.failures == Self.failuresBeforeGivingUp {
            logger.error("the session template failed \(Self.failuresBeforeGivingUp) times in a row: sessions are exec'd from now on")
        }
    }

    /// Starts a template (counted in `state`); false when none could be.
    private func start(_ state: inout State) -> Bool {
        state.running = spawn()
        if state.running != nil { state.started += 1 }
        return state.running != nil
    }

    /// Spawns a template: this binary with the socket's other end as descriptor 3.
    private func spawn() -> Running? {
        var ends: [CInt] = [-1, -1]
        guard socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            logger.error("no session template: socketpair failed", metadata: ["error": "\(String(cString: strerror(errno)))"])
            return nil
        }
        // This process's environment, with the variable that makes the binary a template.
        var environment = ProcessInfo.processInfo.environment
        environment[CPTY_TEMPLATE_VARIABLE] = "3"
        let entries = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // The blank argument is room for each session's command line (what ps shows of it).
        var pid: pid_t = 0
        let handed = [ends[1]]
        let spawned = withCStringArray([executablePath, String(repeating: " ", count: 2048)]) { argv in
            withCStringArray(entries) { envp in cpty_spawn_handing(executablePath, argv, envp, handed, 1, &pid) }
        }
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            logger.error("no session template: it could not be started", metadata: ["error": "\(String(cString: strerror(spawned)))"])
            return nil
        }
        logger.info("session template started", metadata: ["pid": "\(pid)"])
        return Running(socket: ends[0], pid: pid)
    }

    private static func end(_ running: Running) {
        close(running.socket)
        _ = kill(running.pid, SIGKILL)
        reap(running.pid)
    }

    private static func reap(_ pid: pid_t) {
        var status: CInt = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}

/// This process is a child subreaper while it has a session template, so a session's own
/// children left running when it ends become this process's children. They are reaped here:
/// only ended children in the session (setsid) of a session this process started, never a
/// session itself (its ``ChildProcess`` waits for it and needs its status) nor any other child.
/// The kernel does not reuse a pid while a process still has it as its session, so a session id
/// kept here names that session's processes only; an id whose processes are all gone is dropped
/// by the sweep that follows the session's reaping (the kernel hands out pids in order up to
/// pid_max, so none is reused in between).
enum ChildReaper {
    struct Books {
        /// Sessions started and not yet reaped by their ``ChildProcess``.
        var unreaped = Set<pid_t>()
        /// Sessions (their ids) whose processes may still be around: the started ones, kept
        /// until a sweep finds none of their processes.
        var sessionIDs = Set<pid_t>()
        var sweeping = false
    }

    static let books = NIOLockedValueBox(Books())
    private static let sweeper = NIOLockedValueBox<DispatchSourceBox?>(nil)
    private static let queue = DispatchQueue(label: "tabshell.ssh.orphans")

    /// Books a session just started (a session leader: its pid is its session id). A sweep
    /// before this line cannot take it: a sweep never reaps a session leader.
    static func started(session pid: pid_t) {
        books.withLockedValue { books in
            books.unreaped.insert(pid)
            if books.sweeping { books.sessionIDs.insert(pid) }
        }
    }

    /// After a session was reaped: a sweep for what it left.
    static func release(_ pid: pid_t) {
        let sweeping = books.withLockedValue { books in
            books.unreaped.remove(pid)
            return books.sweeping
        }
        if sweeping { queue.async { sweep() } }
    }

    /// Sweeps every 2 seconds from now on (and after every session's end).
    static func startSweeping() {
        books.withLockedValue { $0.sweeping = true }
        sweeper.withLockedValue { box in
            guard box == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .seconds(2), repeating: .seconds(2))
            timer.setEventHandler { sweep() }
            box = DispatchSourceBox(source: timer)
            timer.resume()
        }
    }

    /// Reaps every ended child left by a session; the count.
    @discardableResult
    static func sweep() -> Int {
        books.withLockedValue { books in
            var reaped = 0
            var around = Set<pid_t>()
            for pid in children() {
                guard let (state, session) = stateAndSession(of: pid) else { continue }
                if state == "Z", pid != session, !books.unreaped.contains(pid), books.sessionIDs.contains(session) {
                    var status: CInt = 0
                    if waitpid(pid, &status, WNOHANG) == pid {
                        reaped += 1
                        continue
                    }
                }
                around.insert(session)
            }
            books.sessionIDs = books.sessionIDs.filter { books.unreaped.contains($0) || around.contains($0) }
            return reaped
        }
    }

    /// This process's children, from every thread's `children` file.
    private static func children() -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { Int($0) }.flatMap { task in
            (text(of: "/proc/self/task/\(task)/children") ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { pid_t($0) }
        }
    }

    /// The state letter and session id from /proc/PID/stat (the name may hold spaces and
    /// parentheses: the fields follow the last ')').
    private static func stateAndSession(of pid: pid_t) -> (Character, pid_t)? {
        guard let text = text(of: "/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let state = fields[0].first, let session = pid_t(fields[3]) else { return nil }
        return (state, session)
    }

    /// A /proc file's text (Foundation reads such files to their end, though their size says 0).
    private static func text(of path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
