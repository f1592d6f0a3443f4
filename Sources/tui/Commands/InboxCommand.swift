import ArgumentParser
import TabShellCommands

/// `tabshell inbox …`
struct InboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Work with Inbox requests from the shell.",
        subcommands: [
            InboxAdd.self, InboxList.self, InboxImport.self, InboxReopen.self, InboxRemove.self,
        ]
    )
}
