import ArgumentParser
import TabShellCommands

/// `tabshell inbox …`
struct InboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Work with Inbox requests from the shell.",
        subcommands: [
            InboxAddCommand.self, InboxListCommand.self, InboxImportCommand.self, InboxReopenCommand.self, InboxRemoveCommand.self,
        ]
    )
}

/// `tabshell inbox add --title T [--body B] [--kind K]`
struct InboxAddCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a pending request to the Inbox; prints its id."
    )

    @OptionGroup var options: InboxAdd
}

/// `tabshell inbox list [--json] [--limit N]`
struct InboxListCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List Inbox requests: pending first, then done, newest first.",
        discussion: "Without --json, prints a table for people (times in UTC). With --json, prints one object that tabshell inbox import reads back."
    )

    @OptionGroup var options: InboxList
}

/// `tabshell inbox import FILE.json|-`
struct InboxImportCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the requests in a JSON file to the Inbox, all or nothing.",
        discussion: """
            The file is a JSON array of {"title", "body", "kind"} objects, or the object tabshell inbox list --json \
            prints. Every entry is checked first; if any is wrong, each problem is printed with its index and \
            nothing is imported. Otherwise all are added as pending requests in one transaction. A file holds at \
            most 100,000 requests of at most 1 MiB each, in at most 64 MiB. See docs/export.md.
            """
    )

    @OptionGroup var options: InboxImport
}

/// `tabshell inbox reopen ID`
struct InboxReopenCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen",
        abstract: "Make a done request pending again.",
        discussion: "The records that answered it keep naming it. Deleting the last record that answered a request reopens it too."
    )

    @OptionGroup var options: InboxReopen
}

/// `tabshell inbox remove ID`
struct InboxRemoveCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a request from the Inbox.",
        discussion: "The records that answered it stay in History, answering no request from then on; the command says how many."
    )

    @OptionGroup var options: InboxRemove
}
