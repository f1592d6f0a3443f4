import ArgumentParser
import TabShellCommands

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

/// An argument-parser shell over one of TabShellCommands' commands: the shell gives the name
/// and the help, the body (an `@OptionGroup`) the arguments and the work; what it throws is the
/// exit status (`Failure`: 1 with its sentence; `ExitCode`: that status, quietly).
protocol ShellCommand: ContextCommand {
    associatedtype Body: CommandBody
    var options: Body { get }
}

extension ShellCommand {
    func execute(_ context: CommandContext) throws {
        try options.execute(context)
    }
}
