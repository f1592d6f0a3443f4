import Foundation
import Testing

/// The tiers a suite belongs to, set on the suite (`@Suite(.tags(.e2e))`). `make check` leaves
/// the tagged suites out (scripts/test-tiers lists them); `make test` runs everything.
extension Tag {
    /// The real binary in tmux, a pseudo-terminal or behind real ssh clients.
    @Tag public static var e2e: Tag
    /// Long loops, fuzzing, many processes, benchmarks.
    @Tag public static var stress: Tag
    /// Needs the PostgreSQL test server (`TABSHELL_TEST_DATABASE_URL`, scripts/pg-test-server).
    @Tag public static var postgres: Tag
}

/// The benchmarks that print what a piece costs (scanning a photo, recording a session): run by
/// `make bench`, which sets `TABSHELL_MICRO_BENCH=1`, and skipped by `make test` and `make check`
/// (a benchmark is measured, never asserted as a test).
public enum Benchmarks {
    public static let variable = "TABSHELL_MICRO_BENCH"
    public static var enabled: Bool { !(ProcessInfo.processInfo.environment[variable] ?? "").isEmpty }
    public static let reason: Comment = "a benchmark: make bench runs it (TABSHELL_MICRO_BENCH=1)"
}
