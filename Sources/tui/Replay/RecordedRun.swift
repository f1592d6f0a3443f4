import CPty
import ChildProcess
import Domain
import Foundation
import Recording
import TabShell
import TabShellCommands
import TerminalScreen

/// `tabshell --record FILE`: the app runs as a child on a pseudo-terminal of its own, and this
/// process relays between it and the real terminal — keys in, the screen out — writing what
/// the app drew and each resize into FILE as asciicast v2 (what `script` and `asciinema rec`
/// do). A relay rather than a tee inside the app because ncurses writes with write(2) on its
/// output FILE's descriptor: a FILE from fopencookie has none (fileno -1) and curses draws
/// nothing through it.
///
/// As under `tabshell serve`, the app is the leader of its own session there, so Ctrl-Z does
/// not suspend it. SIGHUP (the terminal gone), SIGTERM, SIGINT and SIGQUIT are passed on to the
/// app, which ends as it would on them; this process then exits with the app's status.
enum RecordedRun {
    static func run(file: String, arguments: [String]) throws(Failure) -> Int32 {
        let shownName = Sanitizer(unicode: true).line(file)
        guard let executable = ServeCommand.runningExecutable() else {
            throw Failure("tabshell cannot find its own executable (/proc/self/exe) to record it.")
        }
        // Said before anything else (the file is made without replacing anything all the same).
        var existing = stat()
        if lstat(file, &existing) == 0 { throw exists(shownName) }
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Failure("--record needs a terminal: /dev/tty could not be opened.") }
        defer { close(descriptor) }
        guard let terminal = RawTerminal(descriptor: descriptor) else {
            throw Failure("--record needs a terminal: /dev/tty is not one.")
        }
        var columns: UInt16 = 80
        var rows: UInt16 = 24
        if cpty_get_window_size(descriptor, &columns, &rows) != 0 || columns == 0 || rows == 0 {
            (columns, rows) = (80, 24)
        }
        var header = CastHeader(width: Int(columns), height: Int(rows), timestamp: Int(Date().timeIntervalSince1970))
        if let term = ProcessInfo.processInfo.environment["TERM"], !term.isEmpty { header.environment["TERM"] = term }

        let recorder: CastFileRecorder
        do {
            recorder = try CastFileRecorder.create(path: file, header: header)
        } catch {
            if error.code == EEXIST { throw exists(shownName) }
            throw Failure("\(shownName) cannot be made (\(error.reason)).")
        }
        defer {
            recorder.finish()
            recorder.waitUntilWritten()
        }

        guard let signals = try? SignalWatcher(signals: [SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGQUIT]) else {
            throw Failure("tabshell --record could not set up signal handling.")
        }
        defer { signals.stop() }
        let childArguments = [executable] + withoutRecordOption(Array(arguments.dropFirst()))
        var master: Int32 = -1
        var pid: pid_t = 0
        // Signals the child must not inherit as ignored (SignalWatcher ignores them here): the
        // spawner resets every signal to its default in the child.
        let spawned = withCStringArray(childArguments) { argv in
            cpty_spawn_pty(executable, argv, environ, nil, columns, rows, &master, &pid)
        }
        guard spawned == 0 else {
            throw Failure("tabshell --record could not start the app (\(String(cString: strerror(spawned)))).")
        }
        defer { close(master) }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

        terminal.enterRaw()
        defer { terminal.restore() }
        return relay(terminal: descriptor, master: master, child: pid, signals: signals, recorder: recorder)
    }

    private static func exists(_ shownName: String) -> Failure {
        Failure("\(shownName) exists, and --record never overwrites a file: choose another name or remove it.")
    }

    /// The arguments without `--record FILE` / `--record=FILE`.
    static func withoutRecordOption(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if argument == "--record" {
                skipNext = true
            } else if !argument.hasPrefix("--record=") {
                kept.append(argument)
            }
        }
        return kept
    }

    // MARK: - The relay

    private static func relay(terminal: Int32, master: Int32, child: pid_t, signals: SignalWatcher, recorder: CastFileRecorder) -> Int32 {
        let exitWatch = cpty_pidfd_open(child)
        defer { if exitWatch >= 0 { close(exitWatch) } }
        var terminalOpen = true
        /// False once the app's terminal has no writer left (EIO): it is not polled again, so a
        /// child that closed it but runs on is waited for without spinning.
        var masterOpen = true
        var childStatus: Int32?
        var pendingInput: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)

        func reap() {
            guard childStatus == nil else { return }
            var result = cpty_wait_result()
            guard cpty_wait_nohang(child, &result) == 0 else {
                childStatus = 1
                return
            }
            switch result.kind {
            case 1: childStatus = result.value
            case 2: childStatus = 128 + result.value
            default: break
            }
        }

        /// Reads what the app wrote; false at its end (EIO once no process holds the terminal).
        func drainMaster() -> Bool {
            while true {
                let count = read(master, &buffer, buffer.count)
                if count > 0 {
                    let bytes = buffer[0..<count]
                    recorder.output(bytes)
                    if terminalOpen, !RawTerminal.writeAll(terminal, bytes) { terminalGone() }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                return count < 0 && errno == EAGAIN
            }
        }

        func terminalGone() {
            guard terminalOpen else { return }
            terminalOpen = false
            kill(child, SIGHUP)
        }

        while true {
            var descriptors = [
                pollfd(fd: masterOpen ? master : -1, events: Int16(POLLIN) | (pendingInput.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                pollfd(fd: signals.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminalOpen && pendingInput.isEmpty ? terminal : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: exitWatch, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 4, exitWatch >= 0 ? 1000 : 100)
            if ready < 0, errno != EINTR { break }

            for signal in signals.takePending() {
                switch signal {
                case SIGWINCH:
                    var columns: UInt16 = 0
                    var rows: UInt16 = 0
                    if cpty_get_window_size(terminal, &columns, &rows) == 0, columns > 0, rows > 0 {
                        _ = cpty_set_window_size(master, columns, rows)
                        recorder.resized(columns: Int(columns), rows: Int(rows))
                    }
                case SIGHUP:
                    terminalGone()
                default:
                    kill(child, signal)
                }
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                if !drainMaster() {
                    masterOpen = false
                    pendingInput = []
                    reap()
                    if childStatus != nil { break }
                }
            }
            if descriptors[0].revents & Int16(POLLOUT) != 0, !pendingInput.isEmpty {
                let written = pendingInput.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                if written > 0 { pendingInput.removeFirst(written) }
            }
            if terminalOpen, descriptors[2].revents != 0 {
                let count = read(terminal, &buffer, buffer.count)
                if count > 0 {
                    pendingInput.append(contentsOf: buffer[0..<count])
                    let written = pendingInput.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                    if written > 0 { pendingInput.removeFirst(written) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    terminalGone()
                }
            }
            reap()
            if childStatus != nil {
                // The app has ended: what it wrote last is still in the terminal's buffer.
                _ = drainMaster()
                break
            }
        }
        reap()
        if childStatus == nil {
            kill(child, SIGHUP)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            childStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
        return childStatus ?? 1
    }
}
