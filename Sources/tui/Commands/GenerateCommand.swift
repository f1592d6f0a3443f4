import ArgumentParser
import TabShellCommands

/// `tabshell generate`: fills a database with a large, realistic History for benchmarks.
/// Hidden from help: it is a tool for `make bench`, not something users need.
struct GenerateCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Fill a database with generated requests and records (for benchmarks).",
        shouldDisplay: false
    )

    @OptionGroup var options: GenerateData
}
