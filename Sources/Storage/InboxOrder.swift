import Domain

/// The Inbox's order, the same on every engine: pending requests, then done ones, newest first
/// within each, read as two walks along `(status, createdAt, id)` that stop at the limit.
public enum InboxOrder {
    /// How many requests `inbox list` reads: every one when `limit` is nil.
    public static func listingLimit(_ limit: Int?) -> Int {
        limit.map { max($0, 0) } ?? Int(Int32.max)
    }

    /// The first `limit` rows in the Inbox's order; `fetch(status, count)` reads up to `count`
    /// requests of one status, newest first.
    public static func first<Row, Failure: Error>(
        _ limit: Int, _ fetch: (RequestStatus, Int) throws(Failure) -> [Row]
    ) throws(Failure) -> [Row] {
        var rows = try fetch(.pending, limit)
        if rows.count < limit {
            rows += try fetch(.done, limit - rows.count)
        }
        return rows
    }
}
