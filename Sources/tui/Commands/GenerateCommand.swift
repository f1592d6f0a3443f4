import ArgumentParser
import Foundation
import PostgresStorage
import Storage

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
            if database.postgresURL(environment: environment) != nil {
                // On a server the server makes the rows itself (generate_series): no seed.
                let logger = database.logger(beside: database.databaseURL(environment: environment))
                guard let store = try database.openStore(environment: environment, logger: logger, longStatements: true) as? PostgresStore else { return }
                defer { store.close() }
                let started = ContinuousClock.now
                try PostgresBenchmarkData.fill(store, captures: records, requests: requests)
                let seconds = (ContinuousClock.now - started).components
                let elapsed = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
                print("\(records) records in \(store.displayName) (\(String(format: "%.1f", elapsed)) s)")
                return
            }
            let db = try database.openSQLite(
                for: "generate", environment: environment, logger: database.logger(beside: database.databaseURL(environment: environment)),
                mustExist: false)
            let started = ContinuousClock.now
            let total = try db.generateBenchmarkData(
                BenchmarkDataPlan(records: records, requests: requests, seed: seed), now: Date())
            let seconds = (ContinuousClock.now - started).components
            let elapsed = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
            print("\(total) records in \(db.url.path) (\(String(format: "%.1f", elapsed)) s)")
        } catch {
            throw Failure(sentence(for: error))
        }
    }
}
