import Domain
import Foundation
import PostgresNIO
import Storage

/// Search's statements on PostgreSQL, kept apart so tests can read their plans (`EXPLAIN`):
/// two bounded steps (``searchSteps(_:limit:)``) through the `tabshell_search` text search, run by
/// Storage's search. History's pages and the Inbox are Storage's statements, the same on both
/// engines.
public enum PostgresQueries {
    /// How many of the newest captures ``searchRecent(_:limit:window:)`` looks at.
    public static let recentSearchWindow = 10_000

    /// Search's steps for `text` (see ``tsquery(_:)``): ``searchRecent(_:limit:window:)``, then
    /// ``searchAll(_:limit:)`` when that found fewer than `limit`; empty when `text` has no word.
    static func searchSteps(_ text: String, limit: Int) -> [StoreSQL] {
        [searchRecent(text, limit: limit), searchAll(text, limit: limit)].compactMap { $0 }
    }

    /// Search, first step: the newest `limit` captures matching `text` among the newest `window`
    /// ones, newest first, as History rows; nil when `text` has no word. It walks
    /// `capture_on_created_at_id` and stops at `limit` matches, so a word in many records costs
    /// a few rows and a rare one at most `window`. When it returns `limit` rows they are the
    /// answer (every older capture is older than all of them).
    public static func searchRecent(_ text: String, limit: Int, window: Int = recentSearchWindow) -> StoreSQL? {
        guard let query = tsquery(text) else { return nil }
        let statement: StoreSQL = """
            SELECT \(HistoryRows.columns) \(HistoryRows.from)
            WHERE capture.id IN (
                SELECT recent.id FROM (
                    SELECT id, created_at, search_vector FROM capture ORDER BY created_at DESC, id DESC LIMIT \(max(window, 0))
                ) AS recent
                WHERE recent.search_vector @@ to_tsquery('tabshell_search', \(query))
                ORDER BY recent.created_at DESC, recent.id DESC
                LIMIT \(max(limit, 0))
            )
            ORDER BY capture.created_at DESC, capture.id DESC
            """
        return statement
    }

    /// Search, second step: the newest `limit` captures matching `text` in the whole store,
    /// through the GIN index `capture_on_search_vector` (`tabshell_search_newest`); nil when
    /// `text` has no word. Fast for words in few records; for a word in very many old records
    /// and none of the newest it reads them all (hundreds of milliseconds at a million).
    public static func searchAll(_ text: String, limit: Int) -> StoreSQL? {
        guard let query = tsquery(text) else { return nil }
        let statement: StoreSQL = """
            SELECT \(HistoryRows.columns) \(HistoryRows.from)
            WHERE capture.id IN (SELECT tabshell_search_newest(to_tsquery('tabshell_search', \(query)), \(max(limit, 0))::integer))
            ORDER BY capture.created_at DESC, capture.id DESC
            """
        return statement
    }

    // MARK: - Words

    /// `text` as a `tsquery` for the `tabshell_search` configuration: each word (at most
    /// ``SearchText/maximumQueryUnits``, counting each character of a script written without spaces as
    /// one) quoted and marked as a prefix, all of them required (`'pal':* & 'she':*`). A word
    /// with characters of a script written without spaces is a phrase of its units, as on
    /// SQLite (`('東' <-> '京')` for `東京`; its last unit a prefix only when it is a word).
    /// Units hold only letters and digits, so nothing the user types is read as tsquery syntax.
    /// Nil when `text` has no word.
    public static func tsquery(_ text: String) -> String? {
        let phrases = SearchText.phrases(of: text)
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
