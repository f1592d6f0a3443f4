import Domain
import Foundation

/// The Inbox's calls, written once for both engines: requests added, paged in the Inbox's
/// order, reopened, removed, and the answers an agent waits for.
extension StatementStore {
    public func addRequest(
        title: String, body: String = "", kind: CaptureKind, now: Date, createdBy: String? = nil, requester: String? = nil
    ) throws(StorageError) -> Int64 {
        let (title, requester) = try RequestLimits.validate(title: title, body: body, requester: requester)
        return try writing { session throws(StorageError) in
            try Self.insertRequest(title: title, body: body, kind: kind, now: now, createdBy: createdBy, requester: requester, session)
        }
    }

    public func importRequests(_ requests: [NewRequest], now: Date, createdBy: String? = nil) throws(StorageError) -> [Int64] {
        try RequestLimits.validate(requests)
        return try writing { session throws(StorageError) in
            var ids: [Int64] = []
            ids.reserveCapacity(requests.count)
            for request in requests {
                ids.append(
                    try Self.insertRequest(
                        title: request.title.trimmingCharacters(in: .whitespacesAndNewlines), body: request.body, kind: request.kind,
                        now: now, createdBy: createdBy, requester: request.requester, session))
            }
            return ids
        }
    }

    /// A pending request; its id.
    static func insertRequest(
        title: String, body: String, kind: CaptureKind, now: Date, createdBy: String?, requester: String?,
        _ session: any StatementSession
    ) throws(StorageError) -> Int64 {
        let insert: StoreSQL = """
            INSERT INTO request (title, body, kind, status, created_at, created_by, requester)
            VALUES (\(title), \(body), \(kind.rawValue), 'pending', \(now), \(createdBy), \(requester)) RETURNING id
            """
        guard let id = try session.integer(insert) else { throw session.unreadable("a new request without its id") }
        return id
    }

    /// Up to `limit` requests, pending first and then done, newest first within each group;
    /// `pendingCount` counts every pending request, and `hasMore` says whether there are more
    /// than `limit`. Two walks along `request_on_status_created_at_id` that stop at `limit` and
    /// one row of `request_count`: the cost does not grow with the Inbox.
    public func inbox(limit: Int) throws(StorageError) -> InboxSnapshot {
        let limit = max(limit, 0)
        return try reading { session throws(StorageError) in
            let requests = try Self.inboxPage(limit: limit + 1, session)
            let pending = try session.integer("SELECT pending FROM request_count WHERE id = 1") ?? 0
            return InboxSnapshot(requests: Array(requests.prefix(limit)), pendingCount: Int(pending), hasMore: requests.count > limit)
        }
    }

    /// Requests for `tabshell inbox list`: pending first, then done, newest first; every one
    /// when `limit` is nil.
    public func requestListing(limit: Int?) throws(StorageError) -> [InboxRequest] {
        try reading { session throws(StorageError) in try Self.inboxPage(limit: limit.map { max($0, 0) } ?? Int(Int32.max), session) }
    }

    /// The first `limit` requests in the Inbox's order: pending requests, then done ones, newest
    /// first within each, read as two walks along `(status, created_at, id)` that stop at the limit.
    static func inboxPage(limit: Int, _ session: any StatementSession) throws(StorageError) -> [InboxRequest] {
        func page(_ status: RequestStatus, _ count: Int) throws(StorageError) -> [InboxRequest] {
            try session.all(RequestRows.page(status: status, limit: count)) { row throws(StorageError) in try RequestRows.request(row, session) }
        }
        var requests = try page(.pending, limit)
        if requests.count < limit { requests += try page(.done, limit - requests.count) }
        return requests
    }

    /// `inbox reopen`: request `id` pending again, when it was done.
    public func reopenRequest(id: Int64) throws(StorageError) -> RequestChange {
        try writing { session throws(StorageError) in
            guard let request = try RequestRows.request(id: id, locked: true, session) else { return .notFound(id: id) }
            guard request.status == .done else { return .alreadyPending(request) }
            try session.execute("UPDATE request SET status = 'pending', done_at = NULL WHERE id = \(id)")
            var reopened = request
            reopened.status = .pending
            reopened.doneAt = nil
            return .reopened(reopened)
        }
    }

    /// `inbox remove`: request `id` deleted; the records that answered it stay, answering
    /// nothing (the schema sets their `request_id` to NULL).
    public func removeRequest(id: Int64) throws(StorageError) -> RequestChange {
        try writing { session throws(StorageError) in
            guard let request = try RequestRows.request(id: id, locked: true, session) else { return .notFound(id: id) }
            let answers = try session.integer("SELECT count(*) FROM capture WHERE request_id = \(id)") ?? 0
            try session.execute("DELETE FROM request WHERE id = \(id)")
            return .removed(request, unlinkedRecords: Int(answers))
        }
    }

    /// The request with this id, or nil when there is none.
    public func request(id: Int64) throws(StorageError) -> InboxRequest? {
        try asking { session throws(StorageError) in try RequestRows.request(id: id, locked: false, session) }
    }

    /// The newest record that answers the request `id`, or nil when none does.
    public func answerID(toRequest id: Int64) throws(StorageError) -> Int64? {
        try asking { session throws(StorageError) in
            try session.integer("SELECT id FROM capture WHERE request_id = \(id) ORDER BY id DESC LIMIT 1")
        }
    }

    /// The record with the newest id (the last one committed), or nil when there is none: where
    /// `history export --follow` starts when it is not told `--since`.
    public func lastRecordID() throws(StorageError) -> Int64? {
        try asking { session throws(StorageError) in try session.integer("SELECT max(id) FROM capture") }
    }

    /// Whether a record was committed from the staging folder `stagingID` (the media sweep and
    /// recovery ask before they touch it).
    public func isStagingCommitted(_ stagingID: String) throws(StorageError) -> Bool {
        try asking { session throws(StorageError) in
            try session.integer("SELECT 1 FROM capture WHERE staging_id = \(stagingID) LIMIT 1") != nil
        }
    }
}

/// The `request` table's rows as the app's ``InboxRequest``.
public enum RequestRows {
    /// The columns ``request(_:_:)`` reads, in its order.
    public static let columns = SQLFragment("id, title, body, kind, status, created_at, done_at, created_by, requester")
    /// How many columns ``columns`` names: a statement's own columns after them start here.
    public static let columnCount = 9

    /// Up to `limit` requests of `status`, newest first, along `request_on_status_created_at_id`
    /// (SQLite's `request_on_status_createdAt_id`) without a sort.
    public static func page(status: RequestStatus, limit: Int) -> StoreSQL {
        "SELECT \(columns) FROM request WHERE status = \(status.rawValue) ORDER BY created_at DESC, id DESC LIMIT \(limit)"
    }

    /// The request `id`, or nil; `locked` for the rest of a write.
    static func request(id: Int64, locked: Bool, _ session: any StatementSession) throws(StorageError) -> InboxRequest? {
        let lock = locked ? session.dialect.forUpdate : SQLFragment("")
        return try session.first("SELECT \(columns) FROM request WHERE id = \(id)\(lock)") { row throws(StorageError) in
            try request(row, session)
        }
    }

    /// A row of ``columns``. A NULL where the schema forbids one, or an unknown kind or status,
    /// is the session's sentence for an unreadable request.
    public static func request(_ row: any SQLRow, _ session: any StatementSession) throws(StorageError) -> InboxRequest {
        guard let id = try row.integer(0), let title = try row.text(1), let body = try row.text(2),
            let kind = try row.text(3).flatMap(CaptureKind.init(rawValue:)),
            let status = try row.text(4).flatMap(RequestStatus.init(rawValue:)), let createdAt = try row.time(5)
        else { throw session.unreadable("a request") }
        return InboxRequest(
            id: id, title: title, body: body, kind: kind, status: status, createdAt: createdAt, requester: try row.text(8),
            doneAt: try row.time(6), createdBy: try row.text(7))
    }
}
