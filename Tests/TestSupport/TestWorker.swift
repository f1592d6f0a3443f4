import Foundation

/// The helper processes of the storage tests: one program (Tests/TestWorkers, not a test), told
/// by its first argument which worker to be and by variables what to work on. The test that
/// starts a worker waits for a file it makes ready (or for the worker to end) and then checks
/// what it left behind.
public enum TestWorker: String, CaseIterable, Sendable {
    /// Captures, commits, closes and recovers at random until SIGKILL (StorageTests' CrashTests).
    case crashVictim = "crash-victim"
    /// One session committing captures into an SQLite file (StorageTests' ConcurrencyTests).
    case session
    /// Migrates a PostgreSQL database once (PostgresStorageTests' MigrationTests).
    case migration
    /// One host of 8 sessions committing into a PostgreSQL store (PostgresStorageTests' MultiHostTests).
    case host

    /// The worker program is not beside the test runner.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "no TestWorkers program beside the test runner: run `swift build --build-tests`" }
    }

    /// Starts this worker with `environment` (merged over nothing: pass what it needs), its
    /// output and errors appended to `outputPath`.
    public func spawn(environment: [String: String], outputPath: String) throws -> ChildProcess {
        guard let program = ChildProcess.testWorkers() else { throw Missing() }
        return try ChildProcess.spawn(program, arguments: [rawValue], environment: environment, outputPath: outputPath)
    }

    /// The variables the workers read.
    public enum Variable {
        public static let crashDatabase = "TABSHELL_CRASH_VICTIM_DB"
        public static let crashSeed = "TABSHELL_CRASH_VICTIM_SEED"
        public static let crashReady = "TABSHELL_CRASH_VICTIM_READY"
        public static let crashSources = "TABSHELL_CRASH_VICTIM_SOURCES"
        public static let crashJournal = "TABSHELL_CRASH_VICTIM_JOURNAL"
        /// Set for PostgreSQL: the test server's database to use (`crashDatabase` is then the
        /// host's data folder; the server is `TABSHELL_TEST_DATABASE_URL`).
        public static let crashPostgresDatabase = "TABSHELL_CRASH_VICTIM_POSTGRES_DATABASE"

        public static let sessionDatabase = "TABSHELL_SESSION_WORKER_DB"
        public static let sessionJournal = "TABSHELL_SESSION_WORKER_JOURNAL"
        public static let sessionStart = "TABSHELL_SESSION_WORKER_START"
        public static let sessionCommits = "TABSHELL_SESSION_WORKER_COMMITS"
        public static let sessionName = "TABSHELL_SESSION_WORKER_NAME"

        public static let migrationURL = "TABSHELL_PG_MIGRATION_WORKER_URL"
        public static let migrationJournal = "TABSHELL_PG_MIGRATION_WORKER_JOURNAL"
        public static let migrationStart = "TABSHELL_PG_MIGRATION_WORKER_START"

        public static let hostURL = "TABSHELL_PG_HOST_WORKER_URL"
        public static let hostFolder = "TABSHELL_PG_HOST_WORKER_FOLDER"
        public static let hostStart = "TABSHELL_PG_HOST_WORKER_START"
        public static let hostName = "TABSHELL_PG_HOST_WORKER_NAME"
        public static let hostCommitsPerSession = "TABSHELL_PG_COMMITS_PER_SESSION"
    }
}
