import CCrashGuard
import Foundation

/// The Swift face of the C crash guard (Sources/CCrashGuard): a fatal signal or a runtime trap
/// puts the terminal back, appends a `critical` line to the log and prints one line on the main
/// screen before the process dies of that signal. Installing it also replaces the Swift
/// runtime's backtracer, so no interactive backtrace prompt is ever left over the screen.
public enum CrashGuard {
    /// Installs the handlers; the log file is where crash lines and, while curses runs,
    /// standard error go. Failing to install is logged, not fatal.
    public static func install(logFile: URL) -> Bool {
        logFile.path.withCString { tsg_install($0) } == 0
    }

    /// While curses owns the screen, standard error (a runtime's "Fatal error" line included)
    /// goes to the log file instead of over the screen.
    public static func captureStandardError() -> Bool { tsg_capture_stderr() == 0 }

    public static func releaseStandardError() { tsg_release_stderr() }

    /// Set in a served session's child by the SSH server (`SSHServer`'s ChildSpawner).
    public static let servedVariable = "TABSHELL_SERVED"

    /// For a child of `tabshell serve`: the guard installed at once, and standard error to the
    /// log, so that a crash's details (the runtime's message, the frames) stay on the server
    /// and the client reads only the server's one sentence. The program's own messages for the
    /// client go to ``clientStandardError``.
    public static func serve(logFile: URL) -> Bool {
        install(logFile: logFile) && tsg_serve_stderr() == 0
    }

    /// Where messages meant for the person at the other end go: standard error, or in a served
    /// child the client's, kept apart from the log by ``serve(logFile:)``.
    public static var clientStandardError: Int32 { tsg_client_stderr() }

    /// For testing the crash path from a real terminal: `TABSHELL_TEST_CRASH=trap|segv|abort`
    /// makes F12 crash the app in that way. Unset (always, in normal use), F12 does nothing.
    public enum TestCrash: String {
        case trap, segv, abort

        public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TestCrash? {
            environment["TABSHELL_TEST_CRASH"].flatMap(TestCrash.init(rawValue:))
        }

        public func perform() -> Never {
            switch self {
            case .trap:
                let nothing: Int? = Int("not a number")
                preconditionFailure("TABSHELL_TEST_CRASH=trap: \(String(describing: nothing))")
            case .segv:
                raise(SIGSEGV)
            case .abort:
                Glibc.abort()
            }
            fatalError("TABSHELL_TEST_CRASH=\(rawValue) did not end the process")
        }
    }
}
