import Domain
import Foundation
import PostgresNIO
import Storage

/// Search on PostgreSQL, kept apart so tests can read its plans (``PostgresPlan``): two bounded
/// steps (``search(_:limit:in:)``) through the `tabshell_search` text search. History's pages
/// and the Inbox are Storage's statements, the same on both engines.
public enum PostgresQueries {
    /// The most words of a search that go to the index, as on SQLite.
    public static let maximumSearchWords = 16

    /// History's columns (Storage's ``HistoryRows``, the same on both engines) and their tables.
    // sql-fragment
    static let rowSelection = rowSelection(adding: "")

    /// ``rowSelection`` with more columns of `capture` or `request` after History's (constant
    /// SQL: the copy's staging and input columns).
    // sql-fragment
    static func rowSelection(adding columns: String) -> String {
        "SELECT " + HistoryRows.columns.text + columns + "\n" + HistoryRows.from.text
    }

    /// How many of the newest captures ``searchRecent(_:limit:window:)`` looks at.
    public static let recentSearchWindow = 10_000

    /// Search, first step: the newest `limit` captures matching `text` (see ``tsquery(_:)``)
    /// among the newest `window` ones, newest first; nil when `text` has no word. It walks
    /// `capture_on_created_at_id` and stops at `limit` matches, so a word in many records costs
    /// a few rows and a rare one at most `window`. When it returns `limit` rows they are the
    /// answer (every older capture is older than all of them); when fewer, run
    /// ``searchAll(_:limit:)``. ``search(_:limit:in:)`` does both.
    public static func searchRecent(_ text: String, limit: Int, window: Int = recentSearchWindow) -> PostgresQuery? {
        guard let query = tsquery(text) else { return nil }
        var bindings = PostgresBindings()
        bindings.append(query)
        bindings.append(max(limit, 0))
        bindings.append(max(window, 0))
        return PostgresQuery(
            unsafeSQL: rowSelection + """

                WHERE capture.id IN (
                    SELECT recent.id FROM (
                        SELECT id, created_at, search_vector FROM capture ORDER BY created_at DESC, id DESC LIMIT $3
                    ) AS recent
                    WHERE recent.search_vector @@ to_tsquery('tabshell_search', $1)
                    ORDER BY recent.created_at DESC, recent.id DESC
                    LIMIT $2
                )
                ORDER BY capture.created_at DESC, capture.id DESC
                """,
            binds: bindings)
    }

    /// Search, second step: the newest `limit` captures matching `text` in the whole store,
    /// through the GIN index `capture_on_search_vector` (`tabshell_search_newest`); nil when
    /// `text` has no word. Fast for words in few records; for a word in very many old records
    /// and none of the newest it reads them all (hundreds of milliseconds at a million).
    public static func searchAll(_ text: String, limit: Int) -> PostgresQuery? {
        guard let query = tsquery(text) else { return nil }
        var bindings = PostgresBindings()
        bindings.append(query)
        bindings.append(max(limit, 0))
        return PostgresQuery(
            unsafeSQL: rowSelection + """

                WHERE capture.id IN (SELECT tabshell_search_newest(to_tsquery('tabshell_search', $1), $2::integer))
                ORDER BY capture.created_at DESC, capture.id DESC
                """,
            binds: bindings)
    }

    /// The newest `limit` captures with a word starting with each word of `text`, newest
    /// first, as History rows (``rowSelection``'s columns): ``searchRecent(_:limit:window:)``,
    /// then ``searchAll(_:limit:)`` if that found fewer than `limit`. Empty when `text` has no
    /// word.
    public static func search(_ text: String, limit: Int, in session: PostgresSession) throws(StorageError) -> [PostgresRow] {
        guard limit > 0, let recent = searchRecent(text, limit: limit) else { return [] }
        let rows = try session.rows(recent)
        if rows.count >= limit { return rows }
        guard let all = searchAll(text, limit: limit) else { return rows }
        return try session.rows(all)
    }

    // MARK: - Words

    /// The words of `text` as the app's search splits them (Storage's, for both engines).
    static func words(_ text: String) -> [String] { SearchWords.of(text) }

    /// `text` as a `tsquery` for the `tabshell_search` configuration: each word (at most
    /// ``maximumSearchWords``, counting each character of a script written without spaces as
    /// one) quoted and marked as a prefix, all of them required (`'pal':* & 'she':*`). A word
    /// with characters of a script written without spaces is a phrase of its units, as on
    /// SQLite (`('東' <-> '京')` for `東京`; its last unit a prefix only when it is a word).
    /// Units hold only letters and digits, so nothing the user types is read as tsquery syntax.
    /// Nil when `text` has no word.
    public static func tsquery(_ text: String) -> String? {
        let phrases = SearchText.phrases(of: text, maximumUnits: maximumSearchWords)
        guard !phrases.isEmpty else { return nil }
        return phrases.map { units in
            let terms = units.enumerated().map { index, unit in
                "'" + unit.text + "'" + (index == units.count - 1 && !unit.isUnspaced ? ":*" : "")
            }
            return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " <-> ") + ")"
        }
        .joined(separator: " & ")
    }
}
