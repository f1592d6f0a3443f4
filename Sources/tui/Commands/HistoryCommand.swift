import ArgumentParser
import TabShellCommands

/// `tabshell history …`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, export or import History records.",
        subcommands: [HistoryList.self, HistoryExport.self, HistoryFileImport.self]
    )
}
