import Foundation
import SQLiteStorage
import Testing

@testable import TabShellCommands

/// `tabshell generate` (hidden, for `make bench`): it fills only the database it is named, and
/// says how many records it made.
@Suite struct GenerateCommandTests {
    @Test func itFillsTheNamedDatabaseAndSaysHowMany() throws {
        let workspace = try Workspace()
        let run = runCommand(["generate", "--db", workspace.databaseURL.path, "--records", "12", "--requests", "3"])
        #expect(run.status == 0, "\(run.message)")
        #expect(run.output.hasPrefix("12 records in \(workspace.databaseURL.path) ("), "\(run.output)")
        #expect(run.output.hasSuffix(" s)\n"), "\(run.output)")
        let db = try AppDatabase.open(at: workspace.databaseURL)
        var records = 0
        try db.historyListing(limit: nil) { _ in records += 1 }
        #expect(records == 12)
        #expect(try db.requestListing(limit: nil).count == 3)
    }

    @Test func itNeverWritesTheDefaultDatabase() {
        let run = runCommand(["generate", "--records", "1"])
        #expect(run.status == 64)
        #expect(run.message.contains("generate needs --db"))
    }
}
