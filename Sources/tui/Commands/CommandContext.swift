import ArgumentParser
import Foundation
import Storage
import TerminalScreen

#if canImport(Glibc)
import Glibc
#endif

/// Somewhere a command writes text: standard output or error, a file, or a test's string.
protocol TextOutput: AnyObject {
    func write(_ text: String) throws(OutputSink.OutputError)
    func finish() throws(OutputSink.OutputError)
}

extension OutputSink: TextOutput {}

/// A test's output: everything written, kept in memory.
final class StringOutput: TextOutput {
    private(set) var text = ""
    func write(_ text: String) throws(OutputSink.OutputError) { self.text += text }
    func finish() throws(OutputSink.OutputError) {}
}

/// What a command reads and writes besides its arguments: the process's streams and
/// environment when run from the shell, a test's values in tests (the same code runs in both).
struct CommandContext {
    var output: any TextOutput
    var errors: any TextOutput
    var environment: [String: String]
    var now: () -> Date
    var outputIsTerminal: Bool
    var errorIsTerminal: Bool
    /// Reads all of standard input.
    var readInput: () throws -> Data
    /// The terminal's size (rows, columns), nil when there is no terminal.
    var terminalSize: () -> (rows: Int, columns: Int)?
    /// Asks the terminal about graphics (`doctor`); the process asks /dev/tty only when standard
    /// output is a terminal.
    var askTerminal: () -> TerminalProbeResult = { .notAsked }

    /// The real process: standard output and error, the environment, the clock.
    static func process() -> CommandContext {
        CommandContext(
            output: OutputSink(descriptor: STDOUT_FILENO),
            errors: OutputSink(descriptor: STDERR_FILENO),
            environment: ProcessInfo.processInfo.environment,
            now: { Date() },
            outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            errorIsTerminal: isatty(STDERR_FILENO) == 1,
            readInput: {
                // At most one byte past the import limit: enough to refuse a too-big input
                // without holding all of it.
                var data = Data()
                while data.count <= RequestImport.maximumBytes,
                    let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty
                {
                    data.append(chunk)
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
    var localeIsUTF8: Bool { Self.localeIsUTF8(environment: environment) }

    /// The locale that decides the character set, and which variable set it.
    var localeName: String { Self.localeName(environment: environment) }

    static func localeIsUTF8(environment: [String: String]) -> Bool {
        let name = localeName(environment: environment).lowercased()
        return name.contains("utf-8") || name.contains("utf8")
    }

    static func localeName(environment: [String: String]) -> String {
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return "C"
    }

    var localeVariable: String? {
        ["LC_ALL", "LC_CTYPE", "LANG"].first { !(environment[$0] ?? "").isEmpty }
    }

    /// Writes a line to standard error; a failing stderr is ignored.
    func warn(_ line: String) {
        try? errors.write(line + "\n")
        try? errors.finish()
    }
}

/// A command that runs against a `CommandContext`: the process's own when run, a test's
/// (arguments, environment, captured output) in the command tests.
protocol ContextCommand: ParsableCommand {
    func execute(_ context: CommandContext) throws
}

extension ContextCommand {
    func run() throws {
        try execute(.process())
    }
}

/// Ends a command's output: a reader that closed the pipe (`| head`) ends the command quietly
/// with status 141, as if SIGPIPE had ended it, which is what shells expect of a Unix tool.
func finishing(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch OutputSink.OutputError.closedByReader {
        throw ExitStatus.brokenPipe
    } catch let error as OutputSink.OutputError {
        throw Failure(error.sentence)
    }
}

/// Exit statuses with a meaning of their own.
enum ExitStatus {
    /// 128 + SIGPIPE: the reader went away.
    static let brokenPipe = ExitCode(128 + SIGPIPE)
}
