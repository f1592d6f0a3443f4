import Foundation
import PostgresNIO
import Storage
import TestSupport
import Testing

@testable import PostgresStorage

/// How long the PostgreSQL engine's paged reads take at growing sizes: printed, not asserted
/// (the numbers depend on the machine and its load; docs/performance.md keeps the measured ones). Runs only
/// when `TABSHELL_PG_BENCH_SIZES` lists the sizes (`scripts/bench-postgres` sets it); each size
/// also checks that every read answers, and from 50,000 captures that it reads no table whole.
@Suite("PostgreSQL query timings", .serialized, .tags(.postgres, .stress))
struct QueryBenchmarkTests {
    static let sizesVariable = "TABSHELL_PG_BENCH_SIZES"
    static var sizes: [Int] {
        (ProcessInfo.processInfo.environment[sizesVariable] ?? "").split(separator: ",").compactMap { Int($0) }
    }

    @Test(.enabled(if: !QueryBenchmarkTests.sizes.isEmpty, "set TABSHELL_PG_BENCH_SIZES (scripts/bench-postgres)"))
    func pagedReadTimings() throws {
        for size in Self.sizes {
            let scratch = try ScratchDatabase()
            let pool = try scratch.pool(maximumConnections: 1)
            defer { pool.close() }
            let migrated = try measure { try PostgresMigrator().migrate(pool) }
            let seeded = try measure { try SeededStore.seed(pool, captures: size) }
            let bytes = try pool.int("SELECT pg_database_size(current_database())::int") ?? 0
            print(
                "postgres bench: \(size) captures: migrate \(format(migrated)), seed \(format(seeded)), database \(bytes / 1_048_576) MiB"
            )
            for read in SeededStore.pagedReads(captures: size) {
                let plan = try pool.withConnection { session throws(StorageError) in
                    try PostgresPlan.explain(read.query, in: session)
                }
                // Below some ten thousand rows the planner rightly reads small tables whole.
                if size >= 50_000 {
                    #expect(plan.sequentiallyScannedTables.isEmpty, "\(size): \(read.name) reads a table whole:\n\(plan)")
                }
                var rows = 0
                var times: [Duration] = []
                for run in 0..<25 {
                    let time = try measure {
                        rows = try pool.withConnection { session throws(StorageError) in try session.rows(read.query).count }
                    }
                    if run >= 5 { times.append(time) }  // the first runs warm the caches
                }
                // A step of search may rightly find nothing (the newest captures hold no match).
                if !read.name.hasPrefix("search") {
                    #expect(rows > 0, "\(size): \(read.name) found nothing")
                }
                times.sort()
                print(
                    "postgres bench: \(size) captures: \(read.name): median \(format(times[times.count / 2])), "
                        + "p90 \(format(times[times.count * 9 / 10])), \(rows) rows"
                )
            }
            // Search as the engine will run it: the newest captures first, the index if need be.
            for search in SeededStore.searches(captures: size) {
                var rows = 0
                var times: [Duration] = []
                for run in 0..<25 {
                    let time = try measure {
                        rows = try pool.withConnection { session throws(StorageError) in
                            try SeededStore.search(search.text, in: session).count
                        }
                    }
                    if run >= 5 { times.append(time) }
                }
                #expect(rows > 0, "\(size): search, \(search.name) found nothing")
                times.sort()
                print(
                    "postgres bench: \(size) captures: search (both steps), \(search.name): median \(format(times[times.count / 2])), "
                        + "p90 \(format(times[times.count * 9 / 10])), \(rows) rows"
                )
            }
        }
    }

    private func measure(_ body: () throws -> Void) throws -> Duration {
        let start = ContinuousClock.now
        try body()
        return ContinuousClock.now - start
    }

    private func format(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return milliseconds >= 1000 ? String(format: "%.1f s", milliseconds / 1000) : String(format: "%.2f ms", milliseconds)
    }
}
