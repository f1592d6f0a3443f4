import ArgumentParser
import Foundation
import Testing

@testable import tui

/// The help of every command, as `--help` prints it at 100 columns.
@Suite struct HelpTests {
    static let commands: [(String, any ParsableCommand.Type)] = [
        ("tabshell", TabShellCommand.self),
        ("inbox", InboxCommand.self),
        ("inbox-add", InboxAddCommand.self),
        ("inbox-list", InboxListCommand.self),
        ("inbox-import", InboxImportCommand.self),
        ("history", HistoryCommand.self),
        ("history-list", HistoryListCommand.self),
        ("history-export", HistoryExportCommand.self),
        ("history-import", HistoryImportCommand.self),
        ("catalog", CatalogCommand.self),
        ("catalog-import", CatalogImportCommand.self),
        ("catalog-list", CatalogListCommand.self),
        ("catalog-clear", CatalogClearCommand.self),
        ("photos", PhotosCommand.self),
        ("photos-add", PhotosAddCommand.self),
        ("photos-list", PhotosListCommand.self),
        ("photos-remove", PhotosRemoveCommand.self),
        ("serve", ServeCommand.self),
        ("doctor", DoctorCommand.self),
        ("db", DbCommand.self),
        ("db-copy", DbCopyCommand.self),
        ("generate", GenerateCommand.self),
    ]

    @Test(arguments: commands.map(\.0))
    func helpMatchesGoldenFile(name: String) throws {
        let command = try #require(Self.commands.first { $0.0 == name }?.1)
        let help = TabShellCommand.helpMessage(for: command, columns: 100)
        #expect(help.contains("USAGE:"))
        try Golden.check(help + "\n", "help-\(name).txt")
    }

    @Test func everySubcommandHasAGoldenHelpFile() {
        // A new subcommand without help coverage fails here.
        func walk(_ command: any ParsableCommand.Type) -> Int {
            1 + command.configuration.subcommands.map(walk).reduce(0, +)
        }
        #expect(walk(TabShellCommand.self) == Self.commands.count)
    }

    @Test func completionScriptsAreGeneratedForEveryShell() {
        for shell in ["bash", "zsh", "fish"] {
            let script = TabShellCommand.completionScript(for: CompletionShell(rawValue: shell) ?? .bash)
            #expect(script.contains("export"), "\(shell) completion lacks the export subcommand")
            #expect(script.contains("doctor"), "\(shell) completion lacks doctor")
        }
    }
}
