import ArgumentParser
import TabShellCommands

/// `tabshell db …`: moving a store between engines.
struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Move a store between engines: tabshell db copy --from PATH --to postgres://…",
        subcommands: [DbCopyCommand.self]
    )
}

/// `tabshell db copy --from PATH --to URL`
struct DbCopyCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy an SQLite store (settings, requests, records, photos, catalog) into an empty PostgreSQL store, all or nothing.",
        discussion: """
            Everything goes in one transaction: the target is read back and its checksum compared with the \
            source's before it is committed, so a failure or a difference leaves the target empty. Record and \
            request ids and uids are kept. The source is not changed. The password comes from the URL, PGPASSWORD or \
            ~/.pgpass and is never printed.
            """
    )

    @OptionGroup var options: DatabaseCopy
}
