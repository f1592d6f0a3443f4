import Domain
import Foundation
import GRDB
import Storage

/// The SQL of History's pages and search, kept apart so tests can read their query plans.
///
/// Every browse mode is a sequence of groups (one for All, one per kind, one per request and
/// then the records without one), each read newest first along an index that starts with the
/// group's column and ends with `(createdAt DESC, id DESC)`. A page is a walk along that
/// sequence from a known place (a record's key, or either end), forward or backward: a keyset
/// read that never counts or sorts the table.
enum HistoryQueries {
    /// A statement and its arguments.
    struct Statement {
        var sql: String
        var arguments: StatementArguments
    }

    typealias Group = HistoryGroup
    typealias Direction = HistoryDirection

    /// A record's place in a mode's order: its group and its key inside the group.
    struct Key {
        var group: Group
        /// The stored `createdAt`, compared as stored (no round trip through `Date`).
        var createdAt: DatabaseValue
        var id: Int64
    }

    /// The columns `HistoryRowRecord` decodes, from `capture` joined to its request.
    // sql-fragment
    static let rowSelection = """
        SELECT capture.id, capture.kind, capture.barcode, capture.symbology, capture.note,
               capture.requestId, request.title AS requestTitle, capture.createdAt, capture.capturedBy,
               capture.requester, capture.productName, capture.productBrand, \(photoColumns)
        FROM capture LEFT JOIN request ON request.id = capture.requestId
        """

    /// A record's photo count and first photo's name, for the list: two lookups on the
    /// UNIQUE(captureId, position) index per row shown; a batch's figures, on `captureLine`'s
    /// key; and what deleting it does to the request it answered (`RequestAfterDeletion`), one
    /// seek on `capture_on_requestId_createdAt_id` for a record that answers one. The selection
    /// must join `request`.
    // sql-fragment
    static let photoColumns = """
        (SELECT COUNT(*) FROM photo WHERE photo.captureId = capture.id) AS photoCount,
               (SELECT originalName FROM photo WHERE photo.captureId = capture.id ORDER BY position LIMIT 1) AS firstPhotoName,
               (SELECT COUNT(*) FROM captureLine WHERE captureLine.captureId = capture.id) AS batchCodes,
               (SELECT TOTAL(quantity) FROM captureLine WHERE captureLine.captureId = capture.id) AS batchScans,
               CASE WHEN request.id IS NULL THEN NULL
                    WHEN request.status <> 'done' THEN 'pendingAlready'
                    WHEN EXISTS (SELECT 1 FROM capture AS other WHERE other.requestId = capture.requestId AND other.id <> capture.id)
                        THEN 'answeredByAnother'
                    ELSE 'pendingAgain' END AS requestAfterDeletion
        """

    // MARK: - Count

    /// The number of captures, from the row the `captureCount` triggers keep.
    static let countSQL = "SELECT count FROM captureCount WHERE id = 1"

    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: countSQL) ?? 0
    }

    /// The first and last name in `capture_on_capturedBy`: two index lookups, no scan.
    // Two subqueries: SQLite reads MIN or MAX off an index only when it is alone in its query.
    static let peopleSQL = "SELECT (SELECT MIN(capturedBy) FROM capture), (SELECT MAX(capturedBy) FROM capture)"

    /// Whether records name more than one person (records without a name are not counted).
    static func hasSeveralPeople(_ db: Database) throws -> Bool {
        guard let row = try Row.fetchOne(db, sql: peopleSQL),
            let first: String = row[0], let last: String = row[1]
        else { return false }
        return first != last
    }

    // MARK: - Pages

    /// The WHERE clause selecting `group`'s captures, with its arguments.
    static func condition(of group: Group) -> (sql: String, arguments: StatementArguments) {
        switch group {
        case .all: ("1", [])
        case let .kind(kind): ("capture.kind = ?", [kind.rawValue])
        case let .request(id, _): ("capture.requestId = ?", [id])
        case .noRequest: ("capture.requestId IS NULL", [])
        case let .requester(name): ("capture.requester = ?", [name])
        case .noRequester: ("capture.requester IS NULL", [])
        }
    }

    /// Up to `limit` of `group`'s captures past `after` in `direction`, skipping `offset`.
    static func rows(
        of group: Group, after: (createdAt: DatabaseValue, id: Int64)?, _ direction: Direction, limit: Int, offset: Int
    ) -> Statement {
        var (sql, arguments) = condition(of: group)  // sql-fragment: constant WHERE text with ? placeholders
        // sql-fragment: constant operators and orders
        let (comparison, order) = direction == .forward ? ("<", "capture.createdAt DESC, capture.id DESC") : (">", "capture.createdAt ASC, capture.id ASC")
        if let after {
            sql += " AND (capture.createdAt, capture.id) \(comparison) (?, ?)"
            arguments += [after.createdAt, after.id]
        }
        arguments += [limit, offset]
        return Statement(sql: "\(rowSelection)\nWHERE \(sql)\nORDER BY \(order)\nLIMIT ? OFFSET ?", arguments: arguments)
    }

    /// How many of `group`'s captures lie past `after` in `direction`, counting at most `limit`.
    static func rowCount(
        of group: Group, after: (createdAt: DatabaseValue, id: Int64)?, _ direction: Direction, atMost limit: Int
    ) -> Statement {
        var (sql, arguments) = condition(of: group)  // sql-fragment: constant WHERE text with ? placeholders
        let comparison = direction == .forward ? "<" : ">"  // sql-fragment
        if let after {
            sql += " AND (capture.createdAt, capture.id) \(comparison) (?, ?)"
            arguments += [after.createdAt, after.id]
        }
        arguments += [limit]
        return Statement(sql: "SELECT COUNT(*) FROM (SELECT 1 FROM capture WHERE \(sql) LIMIT ?)", arguments: arguments)
    }

    // MARK: - Groups

    /// The next requester with captures after `group` (a `.requester`, or nil for the first or
    /// last one), by name along `capture_on_requester_createdAt_id`: one index seek.
    static func requesterGroup(after group: Group?, _ direction: Direction, _ db: Database) throws -> Group? {
        let statement = requesterGroupStatement(after: group, direction)
        guard let name = try String.fetchOne(db, sql: statement.sql, arguments: statement.arguments) else { return nil }
        return .requester(name)
    }

    static func requesterGroupStatement(after group: Group?, _ direction: Direction) -> Statement {
        // sql-fragment: constant operators and orders
        let (comparison, order) = direction == .forward ? (">", "ASC") : ("<", "DESC")
        var sql = "SELECT requester FROM capture WHERE requester IS NOT NULL"
        var arguments: StatementArguments = []
        if case let .requester(name)? = group {
            sql += " AND requester \(comparison) ?"
            arguments = [name]
        }
        return Statement(sql: sql + " ORDER BY requester \(order) LIMIT 1", arguments: arguments)
    }

    /// The next request with captures after `group` (a `.request`, or nil for the first or last
    /// one), walking the requests in title order along `request_on_title_id`.
    static func requestGroup(after group: Group?, _ direction: Direction, _ db: Database) throws -> Group? {
        let statement = requestGroupStatement(after: group, direction)
        guard let row = try Row.fetchOne(db, sql: statement.sql, arguments: statement.arguments) else { return nil }
        return .request(id: row["id"], title: row["title"])
    }

    static func requestGroupStatement(after group: Group?, _ direction: Direction) -> Statement {
        // sql-fragment: constant operators and orders
        let (comparison, order) = direction == .forward ? (">", "title COLLATE NOCASE ASC, id ASC") : ("<", "title COLLATE NOCASE DESC, id DESC")
        var sql = "SELECT id, title FROM request WHERE EXISTS (SELECT 1 FROM capture WHERE capture.requestId = request.id)"
        var arguments: StatementArguments = []
        if case let .request(id, title)? = group {
            // Spelled out, not as a row value: SQLite ranges the index only on this form.
            sql += " AND title COLLATE NOCASE \(comparison)= ? AND (title COLLATE NOCASE \(comparison) ? OR id \(comparison) ?)"
            arguments = [title, title, id]
        }
        return Statement(sql: sql + " ORDER BY \(order) LIMIT 1", arguments: arguments)
    }

    /// Where record `id` sits in `mode`'s order, or nil when there is no such record.
    static func key(of id: Int64, in mode: HistoryBrowseMode, _ db: Database) throws -> Key? {
        let sql = """
            SELECT capture.createdAt, capture.id, capture.kind, capture.requestId, request.title, capture.requester
            FROM capture LEFT JOIN request ON request.id = capture.requestId
            WHERE capture.id = ?
            """
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [id]) else { return nil }
        let group: Group
        switch mode {
        case .all:
            group = .all
        case .byKind:
            guard let kind = CaptureKind(rawValue: row["kind"]) else { return nil }
            group = .kind(kind)
        case .byRequest:
            if let requestID: Int64 = row["requestId"], let title: String = row["title"] {
                group = .request(id: requestID, title: title)
            } else {
                group = .noRequest
            }
        case .byRequester:
            let name: String? = row["requester"]
            group = name.map(Group.requester) ?? .noRequester
        }
        return Key(group: group, createdAt: row["createdAt"], id: row["id"])
    }

    // MARK: - Search

    /// The most words of a query (counting each character of a script written without spaces
    /// as one) that go to the index; more only slow the search down.
    static let maximumSearchWords = 16

    /// `text` as an FTS5 query: each word (a run of letters and digits, the unicode61
    /// tokenizer's idea of one) quoted, with `"` doubled, and marked as a prefix, so whatever
    /// the user typed is matched as text and never read as FTS syntax. A word with characters
    /// of a script written without spaces is a phrase of its units (``SearchText/phrases(of:maximumUnits:)``),
    /// `"東 京"` for `東京`, marked as a prefix only when its last unit is a word. Nil when
    /// `text` has no word.
    static func ftsQuery(_ text: String) -> String? {
        let phrases = SearchText.phrases(of: text, maximumUnits: maximumSearchWords)
        guard !phrases.isEmpty else { return nil }
        return phrases.map { units in
            let phrase = units.map { $0.text.replacingOccurrences(of: "\"", with: "\"\"") }.joined(separator: " ")
            return "\"" + phrase + "\"" + (units.last?.isUnspaced == true ? "" : "*")
        }
        .joined(separator: " ")
    }

    /// The newest `limit` captures matching `text` (see ``ftsQuery(_:)``), newest first; nil
    /// when `text` has no word to look for.
    ///
    /// The index answers in id order (newest recorded first) and stops at `limit`; only those
    /// rows are joined and put in History's order.
    static func search(_ text: String, limit: Int) -> Statement? {
        guard let query = ftsQuery(text) else { return nil }
        return Statement(
            sql: """
                SELECT capture.id, capture.kind, capture.barcode, capture.symbology, capture.note,
                       capture.requestId, request.title AS requestTitle, capture.createdAt, capture.capturedBy,
                       capture.requester, capture.productName, capture.productBrand, \(photoColumns)
                FROM (SELECT rowid AS hitId FROM captureSearch WHERE captureSearch MATCH ? ORDER BY rowid DESC LIMIT ?) AS hit
                JOIN capture ON capture.id = hit.hitId
                LEFT JOIN request ON request.id = capture.requestId
                ORDER BY capture.createdAt DESC, capture.id DESC
                """,
            arguments: [query, limit]
        )
    }
}

/// SQLite's answers to History's walk: HistoryQueries' statements on one read snapshot.
struct SQLiteHistorySource: HistoryWalkSource {
    let db: Database

    func rows(of group: HistoryGroup, after: (stamp: DatabaseValue, id: Int64)?, _ direction: HistoryDirection, limit: Int, offset: Int)
        throws -> [HistoryRowRecord]
    {
        let statement = HistoryQueries.rows(
            of: group, after: after.map { (createdAt: $0.stamp, id: $0.id) }, direction, limit: limit, offset: offset)
        return try HistoryRowRecord.fetchAll(db, sql: statement.sql, arguments: statement.arguments)
    }

    func rowCount(of group: HistoryGroup, after: (stamp: DatabaseValue, id: Int64)?, _ direction: HistoryDirection, atMost limit: Int)
        throws -> Int
    {
        let statement = HistoryQueries.rowCount(
            of: group, after: after.map { (createdAt: $0.stamp, id: $0.id) }, direction, atMost: limit)
        return try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0
    }

    func requestGroup(after group: HistoryGroup?, _ direction: HistoryDirection) throws -> HistoryGroup? {
        try HistoryQueries.requestGroup(after: group, direction, db)
    }

    func requesterGroup(after group: HistoryGroup?, _ direction: HistoryDirection) throws -> HistoryGroup? {
        try HistoryQueries.requesterGroup(after: group, direction, db)
    }

    func key(of id: Int64, in mode: HistoryBrowseMode) throws -> (group: HistoryGroup, stamp: DatabaseValue, id: Int64)? {
        try HistoryQueries.key(of: id, in: mode, db).map { ($0.group, $0.createdAt, $0.id) }
    }

    func row(id: Int64) throws -> HistoryRowRecord? {
        try HistoryRowRecord.fetchOne(db, sql: HistoryQueries.rowSelection + "\nWHERE capture.id = ?", arguments: [id])
    }
}
