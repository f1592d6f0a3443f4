import Domain
import Foundation

/// History's pages, written once for both engines: the count the triggers keep, the keyset walk
/// along a browse mode's groups (``HistoryWalk`` over ``HistoryStatements``), and a record's
/// detail (its photos are the engine's, ``StatementStore/photos(ofRecord:_:)``).
///
/// Every statement pages or stops early along an index: nothing loads every record or sorts
/// the whole `capture` table (the plan tests of both engines hold that).
extension StatementStore {
    /// The captures at positions `start ..< start + count` in `request.mode`'s order, read in
    /// one snapshot with the total count; a `start` past the records is clamped to the last
    /// page. Read from the top, the bottom or the request's anchor, whichever is nearest, so a
    /// page next to the rows on screen and the first and last pages cost the same at any size.
    public func historyPage(_ request: HistoryPageRequest) throws(StorageError) -> HistoryPage {
        let mode = request.mode
        return try reading { session throws(StorageError) in
            let total = Int(try session.integer("SELECT count FROM capture_count WHERE id = 1") ?? 0)
            let (start, positions) = request.window(total: total)
            guard !positions.isEmpty else {
                return HistoryPage(start: start, rows: [], totalCount: total, mode: mode)
            }
            let rows = try HistoryWalk(source: HistoryStatements(session: session)).rows(mode, at: positions, total: total, anchor: request.anchor)
            let (first, last) =
                try session.first(HistoryRows.people) { row throws(StorageError) in (try row.text(0), try row.text(1)) } ?? (nil, nil)
            return HistoryPage(
                start: start, rows: rows, totalCount: total, mode: mode, hasSeveralPeople: first != nil && last != nil && first != last)
        }
    }

    /// Up to `limit` captures with a word in their code, note, request title, person, product
    /// or batch line codes that starts with each word of `query` (case- and
    /// accent-insensitively), newest first; in a script written without spaces (Han, kana,
    /// Hangul, Thai…) any part of a run matches (``SearchText``). A query without a letter or
    /// digit matches nothing. The words go to the engine's full-text index
    /// (``searchStatements(_:limit:)``) as quoted prefix terms and phrases, never as its syntax.
    public func search(_ query: String, limit: Int) throws(StorageError) -> [HistoryRow] {
        let text = try StorageLimits.searchText(query)
        let steps = limit > 0 ? searchStatements(text, limit: limit) : []
        guard !steps.isEmpty else { return [] }
        return try reading { session throws(StorageError) in try HistoryRows.search(steps, limit: limit, session) }
    }

    /// The record `id` as History shows it, with its photos in order and its batch lines, read
    /// in one snapshot; nil when there is no such record.
    public func recordDetail(id: Int64) throws(StorageError) -> RecordDetail? {
        try reading { session throws(StorageError) in
            guard let record = try HistoryStatements(session: session).row(id: id) else { return nil }
            let lines = try HistoryRows.batchLines(ofRecord: id, session)
            return RecordDetail(record: record, photos: try photos(ofRecord: id, session), lines: lines)
        }
    }
}

/// History's rows: the columns every History read selects, and their reading into
/// ``HistoryRow``.
public enum HistoryRows {
    /// The columns ``historyRow(_:_:)`` reads, in its order, from `capture` joined to its
    /// request (``from``): the record's (``recordColumns``), then History's list figures
    /// (``figures``).
    public static let columns = SQLFragment(recordColumns, figures)

    /// The record's own columns and its request's title: the first twelve of ``columns``.
    public static let recordColumns = SQLFragment(
        """
        capture.id, capture.kind, capture.barcode, capture.symbology, capture.note,
               capture.request_id, request.title AS request_title, capture.created_at, capture.captured_by,
               capture.requester, capture.product_name, capture.product_brand
        """)

    /// What History's list shows of a record beyond its columns. Photo and batch figures are
    /// lookups on the photo table's and `capture_line`'s keys, per row shown; the last column
    /// is what deleting the record does to the request it answered (``RequestAfterDeletion``).
    public static let figures = SQLFragment(
        """
        (SELECT count(*) FROM capture_photo WHERE capture_photo.capture_id = capture.id) AS photo_count,
               (SELECT original_name FROM capture_photo WHERE capture_photo.capture_id = capture.id
                   ORDER BY position LIMIT 1) AS first_photo_name,
               (SELECT count(*) FROM capture_line WHERE capture_line.capture_id = capture.id) AS batch_codes,
               (SELECT coalesce(sum(quantity), 0) FROM capture_line WHERE capture_line.capture_id = capture.id) AS batch_scans,
               CASE WHEN request.id IS NULL THEN NULL
                    WHEN request.status <> 'done' THEN 'pendingAlready'
                    WHEN EXISTS (SELECT 1 FROM capture AS other WHERE other.request_id = capture.request_id AND other.id <> capture.id)
                        THEN 'answeredByAnother'
                    ELSE 'pendingAgain' END AS request_after_deletion
        """)

    /// ``figures``' places, left empty: for a read that counts a record's photos and lines
    /// from the rows it reads of them (the export).
    public static let noFigures = SQLFragment("0, NULL, 0, 0, NULL")

    /// The tables ``columns`` reads.
    public static let from = SQLFragment("FROM capture LEFT JOIN request ON request.id = capture.request_id")

    /// The first and last name in `capture_on_captured_by`: two index lookups, no scan (two
    /// subqueries: SQLite reads MIN or MAX off an index only when it is alone in its query).
    public static let people: StoreSQL = "SELECT (SELECT min(captured_by) FROM capture), (SELECT max(captured_by) FROM capture)"

    /// A batch's lines in scan order, along `capture_line`'s key; a line this tabshell cannot
    /// read (a symbology it does not know) is left out.
    public static func batchLines(ofRecord id: Int64, _ session: any StatementSession) throws(StorageError) -> [BatchLine] {
        try batchLines(ofRecords: id...id, session)[id] ?? []
    }

    /// The batch lines of the records whose ids are in `ids`, each record's in scan order.
    public static func batchLines(ofRecords ids: ClosedRange<Int64>, _ session: any StatementSession) throws(StorageError)
        -> [Int64: [BatchLine]]
    {
        let inRange: StoreSQL = "capture_id BETWEEN \(ids.lowerBound) AND \(ids.upperBound)"
        return try batchLines(where: inRange, session)
    }

    /// The batch lines of the records `condition` selects, each record's in scan order. A line
    /// this tabshell cannot read is left out, or fails with `unreadable` when one is given.
    static func batchLines(where condition: StoreSQL, unreadable: StorageError? = nil, _ session: any StatementSession)
        throws(StorageError) -> [Int64: [BatchLine]]
    {
        var lines: [Int64: [BatchLine]] = [:]
        let statement: StoreSQL = """
            SELECT capture_id, barcode, symbology, quantity FROM capture_line
            WHERE \(condition) ORDER BY capture_id, position
            """
        try session.forEachRow(statement) { row throws(StorageError) in
            guard let id = try row.integer(0), let value = try row.text(1), let symbology = try row.text(2).flatMap(Symbology.init(rawValue:)),
                let quantity = try row.integer(3)
            else {
                if let unreadable { throw unreadable }
                return
            }
            lines[id, default: []].append(BatchLine(barcode: Barcode(value: value, symbology: symbology), quantity: Int(quantity)))
        }
        return lines
    }

    /// A search's rows: `steps` (``StatementStore/searchStatements(_:limit:)``) run in turn
    /// until one returns `limit` rows, or else the last one's.
    public static func search(_ steps: [StoreSQL], limit: Int, _ session: any StatementSession) throws(StorageError) -> [HistoryRow] {
        var rows: [HistoryRow] = []
        for step in steps {
            rows = try session.all(step) { row throws(StorageError) in try historyRow(row, session.unreadable("a record")) }
            if rows.count >= limit { break }
        }
        return rows
    }

    /// How many columns ``columns`` has: a selection may add its own after them.
    public static let columnCount = 17

    /// A row of ``columns`` (and any after them). A NULL where the schema forbids one, or an
    /// unknown kind or symbology, is the session's sentence for an unreadable record.
    public static func historyRow(_ row: any SQLRow, _ unreadable: @autoclosure () -> StorageError) throws(StorageError) -> HistoryRow {
        guard let id = try row.integer(0), let kind = try row.text(1).flatMap(CaptureKind.init(rawValue:)),
            let createdAt = try row.time(7)
        else { throw unreadable() }
        var code: Barcode?
        if let value = try row.text(2), let name = try row.text(3) {
            guard let symbology = Symbology(rawValue: name) else { throw unreadable() }
            code = Barcode(value: value, symbology: symbology)
        }
        let productBrand = try row.text(11)
        return HistoryRow(
            id: id, kind: kind, barcode: code, note: try row.text(4), requestID: try row.integer(5), requestTitle: try row.text(6),
            createdAt: createdAt, capturedBy: try row.text(8), requester: try row.text(9),
            product: try row.text(10).map { Product(name: $0, brand: productBrand) }, photoCount: Int(try row.integer(12) ?? 0),
            firstPhotoName: try row.text(13), batchCodes: Int(try row.integer(14) ?? 0), batchScans: Int(try row.integer(15) ?? 0),
            requestAfterDeletion: try row.text(16).flatMap(RequestAfterDeletion.init(rawValue:)))
    }
}

/// History's keyset walk (``HistoryWalk``) on one snapshot: each group's rows past a record,
/// newest first along an index that starts with the group's column and ends with
/// `(created_at DESC, id DESC)`, and the neighbouring groups. A record's place is read on the
/// engine from its id, so no time makes a round trip through `Date`.
public struct HistoryStatements {
    let session: any StatementSession

    /// The condition selecting `group`'s captures.
    static func condition(of group: HistoryGroup) -> StoreSQL {
        switch group {
        case .all: "TRUE"
        case let .kind(kind): "capture.kind = \(kind.rawValue)"
        case let .request(id, _): "capture.request_id = \(id)"
        case .noRequest: "capture.request_id IS NULL"
        case let .requester(name): "capture.requester = \(name)"
        case .noRequester: "capture.requester IS NULL"
        }
    }

    /// The keyset condition past record `id` in `direction` (none without a record).
    static func past(_ id: Int64?, _ direction: HistoryDirection) -> StoreSQL {
        guard let id else { return "" }
        let comparison = direction == .forward ? SQLFragment("<") : SQLFragment(">")
        let past: StoreSQL = " AND (capture.created_at, capture.id) \(comparison) ((SELECT created_at FROM capture WHERE id = \(id)), \(id))"
        return past
    }

    /// Up to `limit` of `group`'s captures past record `after` in `direction`, skipping `offset`.
    public static func rows(of group: HistoryGroup, after: Int64?, _ direction: HistoryDirection, limit: Int, offset: Int) -> StoreSQL {
        let order =
            direction == .forward
            ? SQLFragment("capture.created_at DESC, capture.id DESC") : SQLFragment("capture.created_at ASC, capture.id ASC")
        let rows: StoreSQL = """
            SELECT \(HistoryRows.columns)
            \(HistoryRows.from)
            WHERE \(condition(of: group))\(past(after, direction))
            ORDER BY \(order)
            LIMIT \(limit) OFFSET \(offset)
            """
        return rows
    }

    /// How many of `group`'s captures lie past record `after` in `direction`, at most `limit`.
    public static func rowCount(of group: HistoryGroup, after: Int64?, _ direction: HistoryDirection, atMost limit: Int) -> StoreSQL {
        "SELECT count(*) FROM (SELECT 1 FROM capture WHERE \(condition(of: group))\(past(after, direction)) LIMIT \(limit)) AS counted"
    }

    /// The next request with records after `group` (a `.request`, or nil for the first or last
    /// one), in title order, caselessly as the dialect's index holds titles, then by id.
    public static func requestGroup(after group: HistoryGroup?, _ direction: HistoryDirection, _ dialect: SQLDialect) -> StoreSQL {
        let (title, order) = (dialect.caselessTitle, direction == .forward ? SQLFragment("ASC") : SQLFragment("DESC"))
        let next: StoreSQL = """
            SELECT id, title FROM request WHERE EXISTS (SELECT 1 FROM capture WHERE capture.request_id = request.id)\(
                past(group, direction, dialect))
            ORDER BY \(title) \(order), id \(order) LIMIT 1
            """
        return next
    }

    /// The condition past request group `group` in title order (none without one).
    static func past(_ group: HistoryGroup?, _ direction: HistoryDirection, _ dialect: SQLDialect) -> StoreSQL {
        guard case let .request(id, name)? = group else { return "" }
        let (title, open, close) = (dialect.caselessTitle, dialect.caselessOpen, dialect.caselessClose)
        let comparison = direction == .forward ? SQLFragment(">") : SQLFragment("<")
        // Spelled out, not as a row value: SQLite ranges the index only on this form.
        let past: StoreSQL = """
             AND \(title) \(comparison)= \(open)\(name)\(close) \
            AND (\(title) \(comparison) \(open)\(name)\(close) OR id \(comparison) \(id))
            """
        return past
    }

    /// The next requester with records after `group` (a `.requester`, or nil), by name along
    /// `capture_on_requester_created_at_id`: one index seek.
    public static func requesterGroup(after group: HistoryGroup?, _ direction: HistoryDirection) -> StoreSQL {
        let (comparison, order) = direction == .forward ? (SQLFragment(">"), SQLFragment("ASC")) : (SQLFragment("<"), SQLFragment("DESC"))
        guard case let .requester(name)? = group else {
            let first: StoreSQL = "SELECT requester FROM capture WHERE requester IS NOT NULL ORDER BY requester \(order) LIMIT 1"
            return first
        }
        let next: StoreSQL = """
            SELECT requester FROM capture WHERE requester IS NOT NULL AND requester \(comparison) \(name)
            ORDER BY requester \(order) LIMIT 1
            """
        return next
    }

    /// Up to `limit` of `group`'s captures past record `after` in `direction`, skipping `offset`;
    /// nearest first.
    public func rows(of group: HistoryGroup, after: Int64?, _ direction: HistoryDirection, limit: Int, offset: Int)
        throws(StorageError) -> [HistoryRow]
    {
        try session.all(Self.rows(of: group, after: after, direction, limit: limit, offset: offset)) { row throws(StorageError) in
            try HistoryRows.historyRow(row, session.unreadable("a record"))
        }
    }

    /// How many of `group`'s captures lie past record `after` in `direction`, counting at most `limit`.
    public func rowCount(of group: HistoryGroup, after: Int64?, _ direction: HistoryDirection, atMost limit: Int) throws(StorageError) -> Int {
        Int(try session.integer(Self.rowCount(of: group, after: after, direction, atMost: limit)) ?? 0)
    }

    /// The next request with captures after `group` (a `.request`, or nil for the first or
    /// last one), in title order.
    public func requestGroup(after group: HistoryGroup?, _ direction: HistoryDirection) throws(StorageError) -> HistoryGroup? {
        try session.first(Self.requestGroup(after: group, direction, session.dialect)) { row throws(StorageError) in
            guard let id = try row.integer(0), let title = try row.text(1) else { return nil }
            return .request(id: id, title: title)
        }
    }

    /// The next requester with captures after `group` (a `.requester`, or nil), by name.
    public func requesterGroup(after group: HistoryGroup?, _ direction: HistoryDirection) throws(StorageError) -> HistoryGroup? {
        try session.first(Self.requesterGroup(after: group, direction)) { row throws(StorageError) in
            try row.text(0).map(HistoryGroup.requester)
        }
    }

    /// Where record `id` sits in `mode`'s order (its place in its group is its id), or nil when
    /// there is no such record.
    public func key(of id: Int64, in mode: HistoryBrowseMode) throws(StorageError) -> HistoryWalk.Key? {
        let statement: StoreSQL = """
            SELECT capture.kind, capture.request_id, request.title, capture.requester
            \(HistoryRows.from) WHERE capture.id = \(id)
            """
        let group = try session.first(statement) { row throws(StorageError) -> HistoryGroup? in
            guard let kindName = try row.text(0) else { return nil }
            switch mode {
            case .all:
                return .all
            case .byKind:
                guard let kind = CaptureKind(rawValue: kindName) else { return nil }
                return .kind(kind)
            case .byRequest:
                if let requestID = try row.integer(1), let title = try row.text(2) {
                    return .request(id: requestID, title: title)
                } else {
                    return .noRequest
                }
            case .byRequester:
                return try row.text(3).map(HistoryGroup.requester) ?? .noRequester
            }
        }
        guard let group else { return nil }
        return (group, id)
    }

    /// The record `id`.
    public func row(id: Int64) throws(StorageError) -> HistoryRow? {
        let statement: StoreSQL = "SELECT \(HistoryRows.columns)\n\(HistoryRows.from)\nWHERE capture.id = \(id)"
        return try session.first(statement) { row throws(StorageError) in try HistoryRows.historyRow(row, session.unreadable("a record")) }
    }
}
