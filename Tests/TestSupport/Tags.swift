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
