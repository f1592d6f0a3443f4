import CPty

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        // RLIMIT_DATA in the child before exec (0: the server's own limit).
        let memoryLimit = CUnsignedLongLong(command.memoryLimit ?? 0)
        let forkable = terminal != nil && template?.executablePath == command.executablePath
        var streams: Streams?
        // Claimed before any sweep of ended children can see it (ChildReaper).
        let pid = try ChildReaper.claiming { () throws(SpawnError) -> pid_t in
            var pid: pid_t = 0
            let error: Int32 = withCStringArray(argv) { argvPointer in
                withCStringArray(envp) { envpPointer in
                    withOptionalCString(command.workingDirectory) { cwd in
                        if let terminal {
                            let columns = clampedSize(terminal.columns, fallback: 80)
                            let rows = clampedSize(terminal.rows, fallback: 24)
                            var master: CInt = -1
                            if forkable, let template {
                                var slave: CInt = -1
                                let opened = cpty_open_pty(columns, rows, &master, &slave)
                                guard opened == 0 else { return opened }
                                defer { close(slave) }
                                do throws(SpawnError) {
                                    if let forked = try template.fork(
                                        argv: argvPointer, envp: envpPointer, cwd: cwd, memoryLimit: memoryLimit, terminal: slave)
                                    {
                                        pid = forked
                                        streams = .terminal(master: master)
                                        return 0
                                    }
                                } catch {
                                    close(master)
                                    return error.code
                                }
                                close(master)  // no template answered: exec'd below
                            }
                            let result = cpty_spawn_pty_limited(
                                command.executablePath, argvPointer, envpPointer, cwd, columns, rows, memoryLimit, &master, &pid)
                            if result == 0 { streams = .terminal(master: master) }
                            return result
                        } else {
                            var input: CInt = -1
                            var output: CInt = -1
                            var errors: CInt = -1
                            let result = cpty_spawn_pipes_limited(
                                command.executablePath, argvPointer, envpPointer, cwd, memoryLimit, &input, &output,
                                &errors, &pid)
                            if result == 0 { streams = .pipes(stdin: input, stdout: output, stderr: errors) }
                            return result
                        }
                    }
                }
            }
            guard error == 0, streams != nil else { throw SpawnError(code: error == 0 ? EINVAL : error) }
            return pid
        }
        guard let streams else { throw SpawnError(code: EINVAL) }
        return (ChildProcess(pid: pid), streams)
    }

    /// A window dimension for the kernel: 0 (unknown) becomes the fallback, huge values are capped.
    static func clampedSize(_ value: Int, fallback: UInt16) -> UInt16 {
        value <= 0 ? fallback : UInt16(clamping: min(value, 10_000))
    }

    private static func withCStringArray<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }

    private static func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
