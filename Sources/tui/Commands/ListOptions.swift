import ArgumentParser
import TabShellCommands

/// What every `list` command takes: `--json` and `--limit N` (0 for all).
struct ListOptions<Items: ListedItems>: ParsableArguments {
    @Flag(help: "Print JSON for scripts (see docs/export.md).")
    var json = false

    @Option(help: ArgumentHelp("Show at most this many \(Items.noun); 0 shows all.", valueName: "n"))
    var limit = Items.defaultLimit

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 (all) or more.") }
    }

    /// The number of items to read: nil for all.
    var count: Int? { limit == 0 ? nil : limit }
}
