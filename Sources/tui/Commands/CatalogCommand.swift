import ArgumentParser
import TabShellCommands

/// `tabshell catalog …`: the product catalog scans are named from (seed 003).
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "The product catalog: names and brands shown for scanned codes.",
        subcommands: [CatalogImport.self, CatalogList.self, CatalogClear.self]
    )
}
