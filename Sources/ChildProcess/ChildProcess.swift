import CPty
import Glibc

/// A child process the app starts (the on-commit command, `tmux show` for the clipboard note):
/// posix_spawn with its standard streams where the caller says, the signals the app ignores or
/// blocks set back to their defaults, and optionally a process group of its own, so stopping
/// it stops whatever it started. Not Foundation's `Process`, which notices an exit only once
/// every process holding its descriptors has gone (a command that leaves a child behind would
/// seem to run for ever).
public struct ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable, Equatable {
        /// `/dev/null`.
        case null
        /// A descriptor of ours, duplicated onto the stream.
        case descriptor(Int32)
        /// A file, created or emptied, readable by its owner only (write-only streams).
        case file(String)
    }

    /// Why the child could not be started: `strerror`'s words, lower case ("no such file or directory").
    public struct Failure: Error, Sendable, Equatable {
        public let reason: String
    }

    /// The child's process id (its process group's too, with `ownProcessGroup`).
    public let pid: pid_t

    /// Starts `arguments[0]` (looked up in `PATH` when it has no slash) with `arguments` and
    /// `environment`. The child gets no descriptor of ours but its three streams.
    public static func spawn(
        _ arguments: [String], environment: [String: String], standardInput: Stream = .null, standardOutput: Stream = .null,
        standardError: Stream = .null, ownProcessGroup: Bool = false
    ) -> Result<ChildProcess, Failure> {
        guard let program = arguments.first else { return .failure(Failure(reason: "no command")) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case let .descriptor(descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case let .file(path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
        }
        // Every other descriptor of ours (the store's files, a pipe's other end, a served
        // session's terminal) stays ours.
        _ = cpty_file_actions_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, number) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid: pid_t = 0
        let spawned = withCStringArray(arguments) { argv in
            withCStringArray(environment.map { "\($0.key)=\($0.value)" }) { envp in
                posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        guard spawned == 0 else { return .failure(Failure(reason: String(cString: strerror(spawned)).lowercased())) }
        return .success(ChildProcess(pid: pid))
    }

    /// Its exit, once it has ended (nil while it runs); reaped.
    public func exited() -> Termination? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid ? Termination(status: status) : nil
    }

    /// Waits for it to end; reaped.
    public func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return Termination(status: status)
    }

    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        init(status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }
    }
}
