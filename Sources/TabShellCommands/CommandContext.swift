import Foundation
import Storage
import TerminalScreen

/// Somewhere a command writes text: standard output or error, a file, or a test's string.
public protocol TextOutput: AnyObject {
    func write(_ text: String) throws(OutputSink.OutputError)
    func finish() throws(OutputSink.OutputError)
}

extension OutputSink: TextOutput {}

/// What a command reads and writes besides its arguments: the process's streams and
/// environment when run from the shell, a test's values in tests (the same code runs in both;
/// the tests make theirs with the memberwise initialiser, importing the module @testable).
public struct CommandContext {
    public var output: any TextOutput
    public var errors: any TextOutput
    public var environment: [String: String]
    public var now: () -> Date
    public var outputIsTerminal: Bool
    public var errorIsTerminal: Bool
    /// Reads all of standard input.
    public var readInput: () throws -> Data
    /// The terminal's size (rows, columns), nil when there is no terminal.
    public var terminalSize: () -> (rows: Int, columns: Int)?
    /// Asks the terminal about graphics (`doctor`); the process asks /dev/tty only when standard
    /// output is a terminal.
    public var askTerminal: () -> TerminalProbeResult = { .notAsked }
    /// Standard input as a descriptor, for the commands that stream it (`catalog import -`,
    /// `photos add`) rather than read it whole.
    public var inputDescriptor: Int32 = STDIN_FILENO

    /// The real process: standard output and error, the environment, the clock.
    public static func process() -> CommandContext {
        CommandContext(
            output: OutputSink(descriptor: STDOUT_FILENO),
            errors: OutputSink(descriptor: CrashGuard.clientStandardError),
            environment: ProcessInfo.processInfo.environment,
            now: { Date() },
            outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            errorIsTerminal: isatty(CrashGuard.clientStandardError) == 1,
            readInput: {
                guard let data = readBounded(STDIN_FILENO, limit: RequestImport.maximumBytes) else {
                    throw Failure("Cannot read standard input: \(DurableFiles.reason(errno: errno)).")
                }
                return data
            },
            terminalSize: {
                for fd in [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO] {
                    var size = winsize()
                    if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
                        return (Int(size.ws_row), Int(size.ws_col))
                    }
                }
                return nil
            },
            askTerminal: {
                isatty(STDOUT_FILENO) == 1 ? TerminalProbe.ask(within: .milliseconds(500)) : .notAsked
            })
    }

    /// True when the locale (LC_ALL, else LC_CTYPE, else LANG) names UTF-8.
    public var localeIsUTF8: Bool { Self.localeIsUTF8(environment: environment) }

    /// The locale that decides the character set, and which variable set it.
    public var localeName: String { Self.localeName(environment: environment) }

    public static func localeIsUTF8(environment: [String: String]) -> Bool {
        let name = localeName(environment: environment).lowercased()
        return name.contains("utf-8") || name.contains("utf8")
    }

    public static func localeName(environment: [String: String]) -> String {
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return "C"
    }

    public var localeVariable: String? {
        ["LC_ALL", "LC_CTYPE", "LANG"].first { !(environment[$0] ?? "").isEmpty }
    }

    /// Writes a line to standard error; a failing stderr is ignored.
    public func warn(_ line: String) {
        try? errors.write(line + "\n")
        try? errors.finish()
    }
}
