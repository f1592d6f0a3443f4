import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process started with `posix_spawn` (Foundation's `Process` forks in ways that have hung
/// under the test runner), with standard input from /dev/null and its output appended to a file.
public final class ChildProcess {
    public let pid: pid_t
    private var ended: Ending?

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// The executable file of the running process (the test runner itself).
    public static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The test-worker program (Tests/TestWorkers), built beside the test runner: what the
    /// storage tests start as sessions, hosts, migrators and crash victims. Nil when it is not
    /// there (built by `swift build --build-tests`).
    public static func testWorkers() -> String? {
        guard let runner = currentExecutable() else { return nil }
        let path = URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("TestWorkers").path
        return access(path, X_OK) == 0 ? path : nil
    }

    /// Waits for the process to end (polling, so a test's time limit still applies).
    public func wait() -> Ending {
        while true {
            if let ending = poll() { return ending }
            usleep(5_000)
        }
    }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public var code: Int32
        public var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
    }

    public static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], outputPath: String
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test runner's (other tests' sockets, terminals).
        closeEveryOtherDescriptor(&actions)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw SpawnFailed(code: result) }
        return ChildProcess(pid: pid)
    }

    /// How the process ended.
    public enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case let .exited(code): "exited with status \(code)"
            case let .signalled(signal): "was killed by signal \(signal)"
            }
        }
    }

    /// The ending, if the process has ended (reaping it), else nil.
    public func poll() -> Ending? {
        if let ended { return ended }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        ended = Self.ending(status)
        return ended
    }

    /// Sends SIGKILL and waits for the process to end.
    public func killAndWait() -> Ending {
        if let ended { return ended }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let ending = Self.ending(status)
        ended = ending
        return ending
    }

    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    deinit {
        _ = killAndWait()
    }
}
