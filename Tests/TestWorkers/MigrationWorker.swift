import Foundation
import PostgresStorage
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One of PostgresStorageTests' eight processes starting together: waits for the starting gun,
/// migrates the database once and journals what it applied (or its error). Exits 0 when it
/// journalled, 2 when its variables are incomplete.
enum MigrationWorker {
    static func run(environment: [String: String]) -> Never {
        typealias Variable = TestWorker.Variable
        guard let url = environment[Variable.migrationURL], let journal = environment[Variable.migrationJournal],
            let start = environment[Variable.migrationStart]
        else {
            print("migration worker: missing variables")
            exit(2)
        }
        while access(start, F_OK) != 0 { usleep(200) }
        var line: String
        do {
            let pool = try PostgresPool(location: PostgresLocation(url: url, environment: [:]), maximumConnections: 1)
            let applied = try PostgresMigrator().migrate(pool)
            pool.close()
            line = "applied \(applied.joined(separator: ","))\n"
        } catch {
            line = "error \(error)\n"
        }
        let descriptor = open(journal, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        _ = Array(line.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        exit(0)
    }
}
