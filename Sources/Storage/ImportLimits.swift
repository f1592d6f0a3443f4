import Domain
import Foundation

/// The bounds `inbox import`, `history import` and `catalog import` read a file within, so that
/// what an import holds in memory does not grow with what the file asks for: a file is read one
/// entry (a JSON array's element, a JSON line, a delimited row) at a time, each entry is at most
/// ``maximumEntryBytes``, an import adds at most ``maximumRequests`` requests or
/// ``maximumRecords`` records, and a refusal keeps at most ``maximumProblems`` problems. A file
/// past a bound is refused with a sentence that names it, and nothing of it is imported.
///
/// Each bound is far above what the app itself writes, so that whatever an export or a list
/// prints imports back: a request is at most 500 + 10,000 characters and a record's note 10,000
/// (`StorageLimits`), a few dozen KiB even with every character escaped.
public enum ImportLimits {
    /// The largest `inbox import` or `history import` file (or standard input) read.
    public static let maximumFileBytes = 64 << 20
    /// The longest entry: one request or record as JSON, one JSON line, one row of a delimited
    /// file (of a catalog, the columns it keeps). Its parsed form is several times its size.
    public static let maximumEntryBytes = 1 << 20
    /// The most fields a row of a delimited file has (Open Food Facts' export has about 200).
    public static let maximumFields = 10_000
    /// The most requests one `inbox import` adds.
    public static let maximumRequests = 100_000
    /// The most records one `history import` adds.
    public static let maximumRecords = 250_000
    /// The most problems a refused import lists; past them the file is read no further.
    public static let maximumProblems = 1_000

    /// Whether a refused import's problems were cut at ``maximumProblems`` (the file was read no
    /// further, so there are more).
    public static func isCut(_ problems: [ImportProblem]) -> Bool {
        problems.count > maximumProblems
    }

    /// `1 MiB`, `64 MiB`: a size the bounds above are given in.
    public static func mebibytes(_ bytes: Int) -> String {
        "\(bytes >> 20) MiB"
    }

    /// The sentence for a file with more entries than an import adds at once.
    static func tooManyEntries(_ noun: String, maximum: Int) -> String {
        let count = Count.grouped(maximum)
        return "The file has more than \(count) \(noun); import at most \(count) at a time."
    }

    /// A field holding U+0000, which SQLite would keep only up to there and PostgreSQL refuses.
    static func holdsNUL(_ text: String) -> Bool { text.utf8.contains(0) }
    static let nulReason = "holds a NUL character (\\u0000), which tabshell cannot store."

    /// The sentence for an entry past ``maximumEntryBytes``.
    static func entryTooLong(_ what: String) -> String {
        "\(what) is longer than \(mebibytes(maximumEntryBytes)), more than any the app writes."
    }
}
