import CaptureMode
import Foundation
import PostgresNIO

/// The statements History, search and the Inbox will page with on PostgreSQL, kept apart so
/// tests can read their plans (``PostgresPlan``). Each is a keyset read along an index of
/// the v1 schema: a page continues after a known `(created_at, id)`, never with OFFSET over the
/// table, and never counts it.
///
/// Not used by the app yet: the PostgreSQL engine's reads are to be built on them.
public enum PostgresQueries {
    /// A place in a newest-first list: the last row of the previous page.
    public struct Key: Sendable, Equatable {
        public var createdAt: Date
        public var id: Int64
        public init(createdAt: Date, id: Int64) {
            self.createdAt = createdAt
            self.id = id
        }
    }

    /// The most words of a search that go to the index, as on SQLite.
    public static let maximumSearchWords = 16

    /// The columns of a History row, from `capture` joined to its request: the SQLite
    /// `HistoryQueries.rowSelection` with PostgreSQL's names. Photo and batch figures are
    /// lookups on `capture_photo`'s and `capture_line`'s primary keys, per row shown.
    // sql-fragment
    static let rowSelection = """
        SELECT capture.id, capture.kind, capture.barcode, capture.symbology, capture.note,
               capture.request_id, request.title AS request_title, capture.created_at, capture.captured_by,
               (SELECT count(*) FROM capture_photo WHERE capture_photo.capture_id = capture.id) AS photo_count,
               (SELECT original_name FROM capture_photo WHERE capture_photo.capture_id = capture.id
                   ORDER BY position LIMIT 1) AS first_photo_name,
               (SELECT count(*) FROM capture_line WHERE capture_line.capture_id = capture.id) AS batch_codes,
               (SELECT coalesce(sum(quantity), 0) FROM capture_line WHERE capture_line.capture_id = capture.id) AS batch_scans
        FROM capture LEFT JOIN request ON request.id = capture.request_id
        """

    /// History's All mode, newest first: up to `limit` captures after `key` (from the top when
    /// nil), along `capture_on_created_at_id`; with `kind`, the By kind group of that kind along
    /// `capture_on_kind_created_at_id`.
    public static func historyPage(kind: CaptureKind? = nil, after key: Key?, limit: Int) -> PostgresQuery {
        var bindings = PostgresBindings()
        var conditions: [String] = []
        if let kind {
            bindings.append(kind.rawValue)
            let placeholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
            conditions.append("capture.kind = " + placeholder)
        }
        if let key {
            bindings.append(key.createdAt)
            let createdAt = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
            bindings.append(key.id)
            let id = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
            conditions.append("(capture.created_at, capture.id) < (\(createdAt), \(id))")
        }
        bindings.append(max(limit, 0))
        let limitPlaceholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
        let filter = conditions.isEmpty ? "" : "\nWHERE " + conditions.joined(separator: " AND ")
        return PostgresQuery(
            unsafeSQL: rowSelection + filter + "\nORDER BY capture.created_at DESC, capture.id DESC\nLIMIT " + limitPlaceholder,
            binds: bindings)
    }

    /// The newest `limit` captures with a word starting with each word of `text` (see
    /// ``tsquery(_:)``), newest first; nil when `text` has no word. The GIN index
    /// `capture_on_search_vector` finds rare words; for a word in many records the planner may
    /// walk `capture_on_created_at_id` instead and stop at `limit` matches.
    public static func search(_ text: String, limit: Int) -> PostgresQuery? {
        guard let query = tsquery(text) else { return nil }
        var bindings = PostgresBindings()
        bindings.append(query)
        bindings.append(max(limit, 0))
        return PostgresQuery(
            unsafeSQL: rowSelection + """

                WHERE capture.search_vector @@ to_tsquery('tabshell_search', $1)
                ORDER BY capture.created_at DESC, capture.id DESC
                LIMIT $2
                """,
            binds: bindings)
    }

    /// The Inbox's pending requests, newest first, after `key`, along
    /// `request_on_status_created_at_id` (done ones are the same walk with `status = 'done'`).
    public static func inboxPage(status: String = "pending", after key: Key?, limit: Int) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(status)
        var sql = "SELECT id, title, body, kind, status, created_at, created_by FROM request WHERE status = $1"
        if let key {
            bindings.append(key.createdAt)
            bindings.append(key.id)
            sql += " AND (created_at, id) < ($2, $3)"
        }
        bindings.append(max(limit, 0))
        let limitPlaceholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
        return PostgresQuery(unsafeSQL: sql + " ORDER BY created_at DESC, id DESC LIMIT " + limitPlaceholder, binds: bindings)
    }

    // MARK: - Words

    /// The words of `text` as the app's search splits them: runs of letters and digits.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        for character in text {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// `text` as a `tsquery` for the `tabshell_search` configuration: each word (at most
    /// ``maximumSearchWords``) quoted and marked as a prefix, all of them required
    /// (`'pal':* & 'she':*`). Words hold only letters and digits, so nothing the user types is
    /// read as tsquery syntax. Nil when `text` has no word.
    public static func tsquery(_ text: String) -> String? {
        let words = words(text).prefix(maximumSearchWords)
        guard !words.isEmpty else { return nil }
        return words.map { "'" + $0 + "':*" }.joined(separator: " & ")
    }
}
