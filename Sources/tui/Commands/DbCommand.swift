import ArgumentParser
import TabShellCommands

/// `tabshell db …`: moving a store between engines.
struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Move a store between engines: tabshell db copy --from PATH --to postgres://…",
        subcommands: [DatabaseCopy.self]
    )
}
