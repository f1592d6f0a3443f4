import CaptureMode
import Foundation
import GRDB
import TabShell

/// History's reads beyond the plain newest-first page: the grouped browse modes, search, and a
/// record's detail with its photos. Deleting is ``deleteRecord(id:)`` and ``deleteAllRecords()``
/// (AppDatabase+Photos.swift), which also remove the photo files once the rows are gone.
///
/// Every query pages or stops early: nothing here loads every record, and nothing sorts the
/// whole `capture` table (the query-plan tests in HistoryQueryTests hold that).
extension AppDatabase {
    /// The longest text ``search(_:limit:)`` accepts, in characters.
    public static let maximumSearchLength = 1_000

    // MARK: - Browse modes

    /// The captures at positions `start ..< start + count` in `mode`'s order, read in one
    /// snapshot with the total count. A `start` outside the records is clamped to the last one
    /// (or 0 when there are none), as ``historyPage(_:)`` does.
    ///
    /// - `.all`: newest first.
    /// - `.byRequest`: grouped by the request they answer, groups in the order of the requests'
    ///   titles (case-insensitive, then oldest request first), records without a request last;
    ///   newest first within a group.
    /// - `.byKind`: grouped by kind in `CaptureKind` order (Barcode, Photos, Product, Note);
    ///   newest first within a group.
    ///
    /// A grouped page is read group by group: the group sizes first (one pass over an index, no
    /// sort), then only the groups the page overlaps, each with LIMIT/OFFSET.
    public func historyPage(_ request: HistoryPageRequest, mode: HistoryBrowseMode) throws(StorageError) -> HistoryPage {
        try read { db in
            let total = try CaptureRecord.fetchCount(db)
            let start = min(max(request.start, 0), max(total - 1, 0))
            let count = max(request.count, 0)
            guard count > 0, total > 0 else {
                return HistoryPage(start: start, rows: [], totalCount: total, mode: mode)
            }
            let records: [HistoryRowRecord]
            switch mode {
            case .all:
                records = try HistoryRowRecord.all().limit(count, offset: start).fetchAll(db)
            case .byRequest, .byKind:
                records = try HistoryQueries.groupedRows(mode, start: start, count: count, db)
            }
            return HistoryPage(start: start, rows: records.map(\.historyRow), totalCount: total, mode: mode)
        }
    }

    // MARK: - Search

    /// Up to `limit` captures whose code, note or request title contains `query` (surrounding
    /// white space ignored; ASCII letters match either case), newest first. An empty query
    /// matches nothing.
    ///
    /// The text is bound as a LIKE pattern with `%`, `_` and `\` escaped, so it is matched
    /// literally. The read walks the newest-first index and stops at `limit` matches.
    public func search(_ query: String, limit: Int) throws(StorageError) -> [HistoryRow] {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= Self.maximumSearchLength else {
            throw .invalidInput("A search can have at most \(Self.maximumSearchLength) characters.")
        }
        guard !text.isEmpty, limit > 0 else { return [] }
        let statement = HistoryQueries.search(text, limit: limit)
        return try read { db in
            try HistoryRowRecord.fetchAll(db, sql: statement.sql, arguments: statement.arguments).map(\.historyRow)
        }
    }

    // MARK: - Detail

    /// The capture `id` as History shows it, with its photos in the order they were added, read
    /// in one snapshot; nil when there is no such capture.
    public func recordDetail(id: Int64) throws(StorageError) -> RecordDetail? {
        try read { db in
            guard let record = try HistoryRowRecord.all().filter(CaptureRecord.Columns.id == id).fetchOne(db) else {
                return nil
            }
            let photos = try PhotoRecord
                .filter(PhotoRecord.Columns.captureId == id)
                .order(PhotoRecord.Columns.position)
                .fetchAll(db)
                .compactMap(\.recordPhoto)
            return RecordDetail(record: record.historyRow, photos: photos)
        }
    }
}

extension PhotoRecord {
    /// The facts the detail shows, or nil for a row that was never saved.
    var recordPhoto: RecordPhoto? {
        guard let id else { return nil }
        return RecordPhoto(
            id: id, position: position, originalName: originalName, format: format,
            pixelWidth: pixelWidth, pixelHeight: pixelHeight, byteSize: byteSize
        )
    }
}

/// The SQL of History's grouped pages and search, kept apart so tests can read their query plans.
enum HistoryQueries {
    /// A statement and its arguments.
    struct Statement {
        var sql: String
        var arguments: StatementArguments
    }

    /// One group of a grouped mode: which captures belong to it and how many there are.
    struct Group {
        /// The WHERE clause that selects the group's captures, with its arguments.
        var condition: String // sql-fragment: a WHERE clause with ? placeholders
        var arguments: StatementArguments
        var count: Int
    }

    /// The columns `HistoryRowRecord` decodes, from `capture` joined to its request.
    // sql-fragment
    static let rowSelection = """
        SELECT capture.id, capture.kind, capture.barcode, capture.symbology, capture.note,
               capture.requestId, request.title AS requestTitle, capture.createdAt
        FROM capture LEFT JOIN request ON request.id = capture.requestId
        """

    /// Newest first, the order of the `capture_on_createdAt_id` index.
    static let newestFirst = "ORDER BY capture.createdAt DESC, capture.id DESC" // sql-fragment

    // MARK: - Groups

    /// The groups of `mode`, in display order, with their sizes. Empty groups are left out.
    static func groups(_ mode: HistoryBrowseMode, _ db: Database) throws -> [Group] {
        switch mode {
        case .all:
            return [Group(condition: "1", arguments: [], count: try CaptureRecord.fetchCount(db))]
        case .byKind:
            let statement = kindCounts()
            guard let row = try Row.fetchOne(db, sql: statement.sql, arguments: statement.arguments) else { return [] }
            return CaptureKind.allCases.enumerated().compactMap { index, kind in
                let count: Int = row[index] ?? 0
                return count > 0 ? Group(condition: "capture.kind = ?", arguments: [kind.rawValue], count: count) : nil
            }
        case .byRequest:
            // Counted along the index alone; the titles are looked up once per request, not per capture.
            let rows = try Row.fetchAll(db, sql: requestCounts)
            let titles = try Dictionary(
                Row.fetchAll(db, sql: "SELECT id, title FROM request").map { ($0["id"] as Int64, $0["title"] as String) },
                uniquingKeysWith: { first, _ in first }
            )
            var linked: [(title: String, id: Int64, count: Int)] = []
            var unlinked = 0
            for row in rows {
                let count: Int = row["count"]
                if let id: Int64 = row["requestId"] {
                    linked.append((titles[id] ?? "", id, count))
                } else {
                    unlinked = count
                }
            }
            linked.sort { lhs, rhs in
                let (left, right) = (lhs.title.lowercased(), rhs.title.lowercased())
                return left != right ? left < right : lhs.id < rhs.id
            }
            var groups = linked.map { Group(condition: "capture.requestId = ?", arguments: [$0.id], count: $0.count) }
            if unlinked > 0 {
                // The unary + keeps SQLite from sorting this (possibly huge) group through the
                // requestId index: it walks the newest-first index instead and stops early.
                groups.append(Group(condition: "+capture.requestId IS NULL", arguments: [], count: unlinked))
            }
            return groups
        }
    }

    /// The number of captures of each kind, in `CaptureKind` order: one pass, no sort.
    static func kindCounts() -> Statement {
        let sums = CaptureKind.allCases.map { _ in "COALESCE(SUM(kind = ?), 0)" }.joined(separator: ", ") // sql-fragment: placeholders only
        return Statement(
            sql: "SELECT \(sums) FROM capture",
            arguments: StatementArguments(CaptureKind.allCases.map(\.rawValue))
        )
    }

    /// The number of captures per request (NULL for those without one), counted along the
    /// `requestId` index without touching the table.
    static let requestCounts = """
        SELECT requestId, COUNT(*) AS count FROM capture GROUP BY requestId
        """

    /// Up to `limit` captures of one group, newest first, from `offset` within the group.
    static func rows(of group: Group, limit: Int, offset: Int) -> Statement {
        var arguments = group.arguments
        arguments += [limit, offset]
        return Statement(
            sql: "\(rowSelection)\nWHERE \(group.condition)\n\(newestFirst)\nLIMIT ? OFFSET ?",
            arguments: arguments
        )
    }

    /// The captures at positions `start ..< start + count` of a grouped mode: the groups'
    /// sizes say which groups the range overlaps, and only those are read.
    static func groupedRows(_ mode: HistoryBrowseMode, start: Int, count: Int, _ db: Database) throws -> [HistoryRowRecord] {
        var records: [HistoryRowRecord] = []
        var groupStart = 0
        let end = start + count
        for group in try groups(mode, db) {
            defer { groupStart += group.count }
            let groupEnd = groupStart + group.count
            guard groupEnd > start else { continue }
            guard groupStart < end else { break }
            let offset = max(0, start - groupStart)
            let limit = min(groupEnd, end) - (groupStart + offset)
            let statement = rows(of: group, limit: limit, offset: offset)
            records += try HistoryRowRecord.fetchAll(db, sql: statement.sql, arguments: statement.arguments)
        }
        return records
    }

    // MARK: - Search

    /// Captures whose code, note or request title contains `text`, newest first, at most `limit`.
    static func search(_ text: String, limit: Int) -> Statement {
        let pattern = "%" + likeEscaped(text) + "%"
        return Statement(
            sql: """
                \(rowSelection)
                WHERE capture.barcode LIKE ? ESCAPE '\\' OR capture.note LIKE ? ESCAPE '\\' OR request.title LIKE ? ESCAPE '\\'
                \(newestFirst)
                LIMIT ?
                """,
            arguments: [pattern, pattern, pattern, limit]
        )
    }

    /// `text` with LIKE's wildcards and the escape character escaped, so it matches literally.
    static func likeEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
