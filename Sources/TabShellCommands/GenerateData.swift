import ArgumentParser
import Foundation
import PostgresStorage
import SQLiteStorage
import Storage

/// `tabshell generate --db PATH|URL --records N [--requests M] [--seed S]`: a large, realistic
/// History for benchmarks (`make bench`).
public struct GenerateData: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Fill a database with generated requests and records (for benchmarks).",
        shouldDisplay: false
    )

    @OptionGroup public var database: DatabaseOptions

    @Option(help: ArgumentHelp("Capture records to add.", valueName: "n"))
    public var records: Int

    @Option(help: ArgumentHelp("Inbox requests to add.", valueName: "m"))
    public var requests: Int = 0

    @Option(help: ArgumentHelp("Seed of the generator; the same seed gives the same data.", valueName: "s"))
    public var seed: UInt64 = 1

    public init() {}

    public func validate() throws {
        if database.path == nil {
            throw ValidationError("generate needs --db: it never writes to your own database by default.")
        }
        if records < 0 || requests < 0 {
            throw ValidationError("--records and --requests cannot be negative.")
        }
    }

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let line: String
        do {
            let (_, store) = try database.open(context, longStatements: true)
            let started = ContinuousClock.now
            let total: Int
            if let server = store as? PostgresStore {
                // On a server the server makes the rows itself (generate_series): no seed.
                defer { server.close() }
                try PostgresBenchmarkData.fill(server, captures: records, requests: requests)
                total = records
            } else if let file = store as? AppDatabase {
                total = try file.generateBenchmarkData(BenchmarkDataPlan(records: records, requests: requests, seed: seed), now: context.now())
            } else {
                return
            }
            let elapsed = (ContinuousClock.now - started) / .seconds(1)
            line = "\(total) records in \(store.displayName) (\(String(format: "%.1f", elapsed)) s)\n"
        } catch {
            throw Failure("\(error)")
        }
        try finishing(context, writing: line)
    }
}
