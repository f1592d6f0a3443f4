import CPty
import ChildProcess
import Glibc

/// Starts a session's command through CPty: on a new pseudo-terminal, or with pipes.
enum ChildSpawner {
    enum Streams {
        /// The master side of the child's terminal (input and output both).
        case terminal(master: CInt)
        case pipes(stdin: CInt, stdout: CInt, stderr: CInt)
    }

    struct SpawnError: Error {
        let code: Int32
        var reason: String {
            code == Self.holdsNUL ? "an argument or environment value holds a NUL byte" : String(cString: strerror(code))
        }

        /// Not an errno: a word no C string can carry whole.
        static let holdsNUL: Int32 = -1
    }

    /// Set in every session child's environment (tabshell's `CrashGuard.servedVariable`).
    static let sessionEnvironment = ["TABSHELL_SERVED": "1"]

    /// Starts `command`: forked from `template` when it has a terminal and runs the template's
    /// program, exec'd otherwise (and when the template cannot answer).
    static func spawn(_ command: SSHSessionCommand, terminal: SSHPseudoTerminal?, template: SessionTemplate? = nil)
        throws(SpawnError) -> (ChildProcess, Streams)
    {
        let argv = [command.executablePath] + command.arguments
        // Every child is told it serves a remote client: it keeps its crash details (the
        // runtime's message, frames, library paths) in its log, off the client's streams.
        let environment = command.environment.merging(Self.sessionEnvironment) { _, session in session }
        let envp = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // A NUL would end the C string early: the child would run with other words than these.
        if (argv + envp + [command.workingDirectory ?? ""]).contains(where: ClientText.holdsNUL) {
            throw SpawnError(code: SpawnError.holdsNUL)
        }
        let memoryLimit = CUnsignedLongLong(command.memoryLimit ?? 0)
        let forkFrom = template?.executablePath == command.executablePath ? template : nil
        let started = withCStringArray(argv) { argv in
            withCStringArray(envp) { envp in
                withOptionalCString(command.workingDirectory) { cwd in
                    let request = Request(
                        path: command.executablePath, argv: argv, envp: envp, cwd: cwd, memoryLimit: memoryLimit)
                    guard let terminal else { return spawnWithPipes(request) }
                    // The size is a session's already (``SSHServerLimits/terminalSize(columns:rows:)``).
                    let (columns, rows) = (UInt16(clamping: terminal.columns), UInt16(clamping: terminal.rows))
                    if let forkFrom, let forked = fork(request, columns: columns, rows: rows, from: forkFrom) {
                        return forked
                    }
                    return spawnOnTerminal(request, columns: columns, rows: rows)
                }
            }
        }
        let (pid, streams) = try started.get()
        ChildReaper.started(session: pid)
        return (ChildProcess(pid: pid), streams)
    }

    /// What C is handed to start a session: alive while the caller's closures run.
    private struct Request {
        let path: String
        let argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        let envp: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        let cwd: UnsafePointer<CChar>?
        /// RLIMIT_DATA in the child (0: the server's own limit).
        let memoryLimit: CUnsignedLongLong
    }

    private typealias Started = Result<(pid: pid_t, streams: Streams), SpawnError>

    /// Forked from `template` on a new terminal; nil when no template answers or takes the
    /// request (the caller execs the session instead).
    private static func fork(_ request: Request, columns: UInt16, rows: UInt16, from template: SessionTemplate) -> Started? {
        var master: CInt = -1
        var slave: CInt = -1
        let opened = cpty_open_pty(columns, rows, &master, &slave)
        guard opened == 0 else { return .failure(SpawnError(code: opened)) }
        defer { close(slave) }
        do throws(SpawnError) {
            if let pid = try template.fork(
                argv: request.argv, envp: request.envp, cwd: request.cwd, memoryLimit: request.memoryLimit, terminal: slave)
            {
                return .success((pid, .terminal(master: master)))
            }
        } catch {
            close(master)
            return .failure(error)
        }
        close(master)
        return nil
    }

    /// Exec'd on a new terminal.
    private static func spawnOnTerminal(_ request: Request, columns: UInt16, rows: UInt16) -> Started {
        var master: CInt = -1
        var pid: pid_t = 0
        let result = cpty_spawn_pty_limited(
            request.path, request.argv, request.envp, request.cwd, columns, rows, request.memoryLimit, &master, &pid)
        guard result == 0 else { return .failure(SpawnError(code: result)) }
        return .success((pid, .terminal(master: master)))
    }

    /// Exec'd with pipes for its standard streams (a session without a terminal).
    private static func spawnWithPipes(_ request: Request) -> Started {
        var input: CInt = -1
        var output: CInt = -1
        var errors: CInt = -1
        var pid: pid_t = 0
        let result = cpty_spawn_pipes_limited(
            request.path, request.argv, request.envp, request.cwd, request.memoryLimit, &input, &output, &errors, &pid)
        guard result == 0 else { return .failure(SpawnError(code: result)) }
        return .success((pid, .pipes(stdin: input, stdout: output, stderr: errors)))
    }

    private static func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
