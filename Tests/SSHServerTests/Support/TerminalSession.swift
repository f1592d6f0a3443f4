import CPty
import Dispatch
import Foundation

/// The real ssh client running on a pseudo-terminal of its own (made with CPty, the same code
/// the server uses), so it behaves as in a person's terminal: it sends a pty request with the
/// terminal's size and TERM, and a window-change when the terminal is resized.
final class TerminalSession: @unchecked Sendable {
    // Mutable state is behind `lock`; the descriptor is only closed after the reader ends.
    private let lock = NSLock()
    private var screen = Data()
    private var readerDone = false
    private var exitStatus: Int32?
    let pid: pid_t
    private let master: Int32

    init(
        _ arguments: [String], columns: UInt16, rows: UInt16, term: String = "xterm-256color",
        environment: [String: String] = [:]
    ) throws {
        let argv = [OpenSSH.ssh] + arguments
        var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "TERM": term]
        env.merge(environment) { _, new in new }
        let envp = env.map { "\($0.key)=\($0.value)" }
        var master: Int32 = -1
        var pid: pid_t = 0
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvp = envp.map { strdup($0) } + [nil]
        defer {
            for pointer in cArgv { free(pointer) }
            for pointer in cEnvp { free(pointer) }
        }
        let error = cpty_spawn_pty(OpenSSH.ssh, cArgv, cEnvp, nil, columns, rows, &master, &pid)
        guard error == 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        self.master = master
        self.pid = pid
        let thread = Thread { [self] in readUntilClosed() }
        thread.start()
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                lock.withLock { screen.append(contentsOf: buffer[0..<count]) }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        lock.withLock { readerDone = true }
    }

    /// Everything the terminal has shown so far.
    var text: String {
        lock.withLock { String(decoding: screen, as: UTF8.self) }
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Resizes the terminal: the kernel sends ssh SIGWINCH, ssh sends a window-change.
    func resize(columns: UInt16, rows: UInt16) {
        _ = cpty_set_window_size(master, columns, rows)
    }

    func waitFor(_ expected: String, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !text.contains(expected) {
            if ContinuousClock.now > deadline {
                throw TimedOut(what: "\(expected.debugDescription) on the terminal; it shows \(text.debugDescription)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for ssh to end and for everything it wrote to be read; its exit status.
    func waitForExit(timeout: Duration = .seconds(10)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            var result = cpty_wait_result()
            if lock.withLock({ exitStatus }) == nil, cpty_wait_nohang(pid, &result) == 0, result.kind != 0 {
                let status = result.kind == 1 ? result.value : 128 + result.value
                lock.withLock { exitStatus = status }
            }
            if let status = lock.withLock({ readerDone ? exitStatus : nil }) {
                return status
            }
            if ContinuousClock.now > deadline { throw TimedOut(what: "ssh to exit") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Kills ssh at once (as a crashed laptop or a dropped network would end it).
    func kill() {
        _ = Foundation.kill(pid, SIGKILL)
    }

    deinit {
        let ended = lock.withLock { exitStatus != nil }
        if !ended {
            _ = Foundation.kill(pid, SIGKILL)
            var result = cpty_wait_result()
            for _ in 0..<100 where cpty_wait_nohang(pid, &result) == 0 && result.kind == 0 {
                usleep(10_000)
            }
        }
        // The reader thread ends on EIO once ssh is gone; closing after that is safe enough for tests.
        close(master)
    }
}
