import Domain
import Foundation
import GRDB
import Storage

/// History's search on SQLite: the words of a query as an FTS5 query of the `captureSearch`
/// index. History's pages are Storage's statements (``HistoryStatements``), the same on both
/// engines.
enum HistoryQueries {
    // MARK: - Search

    /// `text` as an FTS5 query: each word (a run of letters and digits, the unicode61
    /// tokenizer's idea of one) quoted, with `"` doubled, and marked as a prefix, so whatever
    /// the user typed is matched as text and never read as FTS syntax. A word with characters
    /// of a script written without spaces is a phrase of its units (``SearchText/phrases(of:maximumUnits:)``),
    /// `"東 京"` for `東京`, marked as a prefix only when its last unit is a word. Nil when
    /// `text` has no word.
    static func ftsQuery(_ text: String) -> String? {
        let phrases = SearchText.phrases(of: text)
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
    static func search(_ text: String, limit: Int) -> StoreSQL? {
        guard let query = ftsQuery(text) else { return nil }
        let search: StoreSQL = """
            SELECT \(HistoryRows.columns)
            FROM (SELECT rowid AS hit_id FROM capture_search WHERE capture_search MATCH \(query) ORDER BY rowid DESC LIMIT \(limit)) AS hit
            JOIN capture ON capture.id = hit.hit_id
            LEFT JOIN request ON request.id = capture.request_id
            ORDER BY capture.created_at DESC, capture.id DESC
            """
        return search
    }
}
