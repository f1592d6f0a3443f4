import CPty
import Dispatch
import Foundation

/// What a finished program printed and returned.
struct ProgramResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs programs (ssh, sftp, ssh-keygen) with pipes on all three streams.
///
/// Not Foundation.Process: on Linux its one manager thread waits with a blocking
/// `waitpid(pid, 0)` as soon as the child closes an inherited socket, which ssh does at start
/// (`closefrom`), so one long-lived ssh holds back every other program's end. CPty (the
/// server's own spawner) is used instead, and programs are reaped here with WNOHANG.
enum Subprocess {
    static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil,
        environment: [String: String]? = nil, timeout: Duration = .seconds(20)
    ) async throws -> ProgramResult {
        let program = try start(executable, arguments, environment: environment)
        return try await program.finish(writing: stdin, timeout: timeout)
    }

    static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> RunningProgram {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw MissingProgram(path: executable)
        }
        return try RunningProgram(executable, arguments, environment: environment)
    }

    struct MissingProgram: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: these tests need the real OpenSSH client (apt-get install openssh-client, as scripts/install-deps does)" }
    }
}

/// A program started with pipes on all three streams; its output is collected as it comes.
final class RunningProgram: @unchecked Sendable {
    // Mutable state is behind `lock`; descriptors are closed only by the threads that own them.
    private let lock = NSLock()
    private var stdout = Data()
    private var stderr = Data()
    private var openStreams = 2
    private var exitStatus: Int32?
    private var inputDescriptor: Int32?
    let pid: pid_t
    let commandLine: String

    init(_ executable: String, _ arguments: [String], environment: [String: String]?) throws {
        let environment = environment ?? ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var input: Int32 = -1
        var output: Int32 = -1
        var errors: Int32 = -1
        var pid: pid_t = 0
        let error = cpty_spawn_pipes(executable, argv, envp, nil, &input, &output, &errors, &pid)
        guard error == 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        self.pid = pid
        self.inputDescriptor = input
        self.commandLine = ([URL(fileURLWithPath: executable).lastPathComponent] + arguments).joined(separator: " ")
        // Threads of their own: blocking reads on GCD's pool would starve the server's tasks
        // (libdispatch on Linux adds threads only once a second).
        Thread { [self, output] in drain(output) { self.stdout += $0 } }.start()
        Thread { [self, errors] in drain(errors) { self.stderr += $0 } }.start()
    }

    private func drain(_ descriptor: Int32, into append: (Data) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            lock.withLock { append(Data(buffer[0..<count])) }
        }
        close(descriptor)
        lock.withLock { openStreams -= 1 }
    }

    var stdoutSoFar: String { lock.withLock { String(decoding: stdout, as: UTF8.self) } }
    var stderrSoFar: String { lock.withLock { String(decoding: stderr, as: UTF8.self) } }

    func write(_ text: String) {
        guard let descriptor = lock.withLock({ inputDescriptor }) else { return }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    }

    func closeInput() {
        let descriptor: Int32? = lock.withLock {
            defer { inputDescriptor = nil }
            return inputDescriptor
        }
        if let descriptor { close(descriptor) }
    }

    func kill(_ signal: Int32 = SIGKILL) {
        _ = Foundation.kill(pid, signal)
    }

    /// Reaps the program if it has ended; its status (128 + signal when killed).
    private func reap() -> Int32? {
        if let known = lock.withLock({ exitStatus }) { return known }
        var result = cpty_wait_result()
        guard cpty_wait_nohang(pid, &result) == 0, result.kind != 0 else { return nil }
        let status = result.kind == 1 ? result.value : 128 + result.value
        lock.withLock { exitStatus = status }
        return status
    }

    var hasEnded: Bool { reap() != nil }

    /// Waits for the end (killing it after `timeout`) and for both streams to close.
    func finish(writing stdin: String? = nil, timeout: Duration = .seconds(20)) async throws -> ProgramResult {
        if let stdin { write(stdin) }
        closeInput()
        let deadline = ContinuousClock.now + timeout
        while true {
            let status = reap()
            let streamsDone = lock.withLock { openStreams == 0 }
            if let status, streamsDone {
                return ProgramResult(status: status, stdout: stdoutSoFar, stderr: stderrSoFar)
            }
            if ContinuousClock.now > deadline {
                kill()
                throw TimedOut(what: "\(commandLine) to end; it printed \(stdoutSoFar.debugDescription) \(stderrSoFar.debugDescription)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until stdout contains `text` (the program keeps running).
    func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !stdoutSoFar.contains(text) {
            if ContinuousClock.now > deadline {
                throw TimedOut(what: "output \(text.debugDescription); got \(stdoutSoFar.debugDescription) \(stderrSoFar.debugDescription)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until stdout contains `text`, typing a newline every 100 ms meanwhile: the server's
    /// idle clock counts from the client's last input, so a start slowed by a loaded machine is
    /// never taken for idleness.
    func waitForOutputWhileTyping(_ text: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !stdoutSoFar.contains(text) {
            if ContinuousClock.now > deadline || hasEnded {
                throw TimedOut(what: "output \(text.debugDescription); got \(stdoutSoFar.debugDescription) \(stderrSoFar.debugDescription)")
            }
            write("\n")
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    deinit {
        if reap() == nil {
            kill()
        }
        closeInput()
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}
