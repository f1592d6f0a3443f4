import ArgumentParser
import Foundation
import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

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
