import ArgumentParser
import Foundation
import PostgresStorage
import SQLiteStorage
import Storage
import TabShellCommands

/// `tabshell generate`: fills a database with a large, realistic History for benchmarks.
/// Hidden from help: it is a tool for `make bench`, not something users need.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Fill a database with generated requests and records (for benchmarks).",
        shouldDisplay: false
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("Capture records to add.", valueName: "n"))
    var records: Int

    @Option(help: ArgumentHelp("Inbox requests to add.", valueName: "m"))
    var requests: Int = 0

    @Option(help: ArgumentHelp("Seed of the generator; the same seed gives the same data.", valueName: "s"))
    var seed: UInt64 = 1

    func validate() throws {
        if database.path == nil {
            throw ValidationError("generate needs --db: it never writes to your own database by default.")
        }
        if records < 0 || requests < 0 {
            throw ValidationError("--records and --requests cannot be negative.")
        }
    }

    func run() throws {
        umask(0o077)
        do {
            let environment = ProcessInfo.processInfo.environment
            let logger = database.logger(beside: database.databaseURL(environment: environment))
            let store = try database.openStore(environment: environment, logger: logger, longStatements: true)
            let started = ContinuousClock.now
            let total: Int
            if let server = store as? PostgresStore {
                // On a server the server makes the rows itself (generate_series): no seed.
                defer { server.close() }
                try PostgresBenchmarkData.fill(server, captures: records, requests: requests)
                total = records
            } else if let file = store as? AppDatabase {
                total = try file.generateBenchmarkData(BenchmarkDataPlan(records: records, requests: requests, seed: seed), now: Date())
            } else {
                return
            }
            let seconds = (ContinuousClock.now - started).components
            let elapsed = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
            print("\(total) records in \(store.displayName) (\(String(format: "%.1f", elapsed)) s)")
        } catch {
            throw Failure(sentence(for: error))
        }
    }
}
