import ArgumentParser
import TabShellCommands

/// `tabshell history …`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, export or import History records.",
        subcommands: [HistoryListCommand.self, HistoryExportCommand.self, HistoryImportCommand.self]
    )
}

/// `tabshell history export --format json|csv|jsonl [--output FILE] [--since ID]`, or
/// `tabshell history export --follow [--since ID]`
struct HistoryExportCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every History record, with its request and photos, as JSON, CSV or JSON lines.",
        discussion: """
            Records come in the order they were committed, from one consistent snapshot, streamed: memory \
            stays flat however many there are. Photos are named by the absolute path of their stored file. \
            Progress goes to standard error when it is a terminal. With --output the file appears only once \
            it is complete (written beside it, then renamed). --since ID starts after record ID. \
            With --follow, every record committed from now on (by any session or process) is printed as a \
            JSON line as it commits, until interrupted (exit 0); with --since too, the records after ID come \
            first, so a consumer that restarts from the last id it saw misses nothing and sees nothing twice. \
            The formats are described in docs/export.md.
            """
    )

    @OptionGroup var options: HistoryExport
}

/// `tabshell history list [--json] [--limit N]`
struct HistoryListCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List History records, newest first.",
        discussion:
            "Without --json, prints a table for people (times in UTC; the table is laid out once every row is read, so prefer --json for very long lists). For every field of every record, use tabshell history export."
    )

    @OptionGroup var options: HistoryList
}

/// `tabshell history import FILE|- [--format json|jsonl|csv] [--dry-run]`
struct HistoryImportCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the records a history export wrote (JSON, JSON lines or CSV), all or nothing.",
        discussion: """
            Reads what tabshell history export writes, in any of its formats (told from the content, or by \
            --format), with every kind of record: each keeps its time, who captured it, its code, note, product, \
            batch lines, its uid and the request it answers (added as it was, once); only ids are new. A record \
            or request the database holds already (the same uid, or for a file without uids the same content) \
            is skipped, so importing a file twice adds nothing; --dry-run says what would be added and skipped. \
            Photos are copied from the paths the export names, and must be there as the export describes them. \
            Every record is checked first; if any is wrong, each problem is printed with its place and nothing \
            is imported. Otherwise all are added in one transaction. A file holds at most 250,000 records of at \
            most 1 MiB each, in at most 64 MiB. See docs/export.md.
            """
    )

    @OptionGroup var options: HistoryFileImport
}
