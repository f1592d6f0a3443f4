import Dispatch
import Foundation

/// What a finished program printed and returned.
struct ProgramResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs programs with Foundation.Process on GCD threads, never blocking Swift's cooperative
/// pool (which the server under test needs for its launcher).
enum Subprocess {
    static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil,
        environment: [String: String]? = nil, timeout: Duration = .seconds(20)
    ) async throws -> ProgramResult {
        let process = try start(executable, arguments, environment: environment)
        return try await process.finish(writing: stdin, timeout: timeout)
    }

    static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> RunningProgram {
        try RunningProgram(executable, arguments, environment: environment)
    }
}

/// A program started with pipes on all three streams.
final class RunningProgram: @unchecked Sendable {
    // Process is thread-safe enough for run/terminate/status; the pipes are only read once each.
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let collected = Collected()

    init(_ executable: String, _ arguments: [String], environment: [String: String]?) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment ?? ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let collected = self.collected
        let outputHandle = output.fileHandleForReading
        let errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async {
            Self.drain(outputHandle) { collected.append(stdout: $0) }
            collected.ended(stdout: true)
        }
        DispatchQueue.global().async {
            Self.drain(errorHandle) { collected.append(stderr: $0) }
            collected.ended(stdout: false)
        }
    }

    private static func drain(_ handle: FileHandle, into append: (Data) -> Void) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            append(chunk)
        }
    }

    var pid: Int32 { process.processIdentifier }

    func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// What it printed so far on stdout (only complete once it ended).
    var stdoutSoFar: String { collected.stdoutText }
    var stderrSoFar: String { collected.stderrText }

    func kill(_ signal: Int32 = SIGKILL) {
        _ = Foundation.kill(process.processIdentifier, signal)
    }

    /// Waits for the end (killing it after `timeout`) and for both streams to close.
    func finish(writing stdin: String? = nil, timeout: Duration = .seconds(20)) async throws -> ProgramResult {
        if let stdin { write(stdin) }
        closeInput()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning || !collected.isComplete {
            if ContinuousClock.now > deadline {
                kill()
                throw TimedOut(what: "\(process.executableURL?.lastPathComponent ?? "program") \(process.arguments ?? [])")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return ProgramResult(status: process.terminationStatus, stdout: collected.stdoutText, stderr: collected.stderrText)
    }

    /// Waits until stdout contains `text` (the program keeps running).
    func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !collected.partialStdout.contains(text) {
            if ContinuousClock.now > deadline { throw TimedOut(what: "output \(text.debugDescription)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var stdout = Data()
        private var stderr = Data()
        private var openStreams = 2

        func append(stdout data: Data) { lock.withLock { stdout += data } }
        func append(stderr data: Data) { lock.withLock { stderr += data } }
        func ended(stdout _: Bool) { lock.withLock { openStreams -= 1 } }
        var isComplete: Bool { lock.withLock { openStreams == 0 } }
        var stdoutText: String { lock.withLock { String(decoding: stdout, as: UTF8.self) } }
        var stderrText: String { lock.withLock { String(decoding: stderr, as: UTF8.self) } }
        var partialStdout: String { stdoutText }
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}
