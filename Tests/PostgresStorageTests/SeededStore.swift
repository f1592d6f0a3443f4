import Domain
import Foundation
import PostgresNIO
import Storage

@testable import PostgresStorage

/// A store filled by the server itself (generate_series), for plans and timings: `captures`
/// captures, one a minute from 2025-01-01 (a fifth of each kind; codes on three kinds in five;
/// half answering one of `captures / 25` requests, an hour apart, a quarter of them pending; a
/// tenth with "pallet" in the note; a tenth with a photo; every fifth a batch of three lines),
/// then ANALYZE, so the planner has its own statistics.
enum SeededStore {
    static func requests(captures: Int) -> Int { max(captures / 25, 10) }

    static func seed(_ pool: PostgresPool, captures: Int) throws {
        try pool.withConnection { session throws(StorageError) in
            try PostgresBenchmarkData.fill(session, captures: captures, requests: requests(captures: captures))
        }
    }

    /// Search's first step for `text` (a statement the server refuses if `text` has no word).
    static func searchRecent(_ text: String) -> PostgresQuery {
        PostgresStatements.query(PostgresQueries.searchRecent(text, limit: 50) ?? "SELECT no word in this search")
    }

    /// Search's second step for `text`.
    static func searchAll(_ text: String) -> PostgresQuery {
        PostgresStatements.query(PostgresQueries.searchAll(text, limit: 50) ?? "SELECT no word in this search")
    }

    /// The ids search finds for `text` (its 50 newest matches), both steps as the store runs them.
    static func search(_ text: String, in session: PostgresSession) throws(StorageError) -> [Int64] {
        try HistoryRows.search(PostgresQueries.searchSteps(text, limit: 50), limit: 50, PostgresStatements(session: session)).map(\.id)
    }

    /// The code of capture `id`'s neighbourhood that only one capture has.
    static func rareCode(captures: Int) -> String { String(4_006_381_333_931 + captures / 2 / 5 * 5) }

    /// The searches the plans and timings look at: a whole code (one record), a code's first 10
    /// digits (a thousand records around the middle), a word in a tenth of the records, two
    /// words whose records are all old ones.
    static func searches(captures: Int) -> [(name: String, text: String)] {
        let code = rareCode(captures: captures)
        return [
            ("one code", code), ("a code's first 10 digits", String(code.prefix(10))), ("a word in a tenth of the records", "pal"),
            ("two words in old records", "pallet 40063813"),
        ]
    }

    /// The statements the PostgreSQL engine pages with, each with the indexes that may serve it
    /// (empty: any, as long as no table is read whole). A By kind page may walk the kind's index
    /// or History's order filtering by kind (the planner takes the latter for a common kind,
    /// whose rows lie in insertion order); a word in many records is found walking History's order.
    static func pagedReads(captures: Int) -> [(name: String, query: PostgresQuery, indexes: Set<String>)] {
        let middle = Int64(captures / 2)
        let searches = searches(captures: captures).flatMap { search in
            [
                ("search, \(search.name), newest \(PostgresQueries.recentSearchWindow)", searchRecent(search.text), Set(["capture_on_created_at_id"])),
                ("search, \(search.name), whole store", searchAll(search.text), Set<String>()),
            ]
        }
        func page(_ group: HistoryGroup, after: Int64?, _ direction: HistoryDirection = .forward) -> PostgresQuery {
            PostgresStatements.query(HistoryStatements.rows(of: group, after: after, direction, limit: 50, offset: 0))
        }
        return [
            ("History, first page", page(.all, after: nil), ["capture_on_created_at_id"]),
            ("History, a page in the middle", page(.all, after: middle), ["capture_on_created_at_id"]),
            ("History, a page in the middle going up", page(.all, after: middle, .backward), ["capture_on_created_at_id"]),
            (
                "History by kind, a page in the middle", page(.kind(.photos), after: middle),
                ["capture_on_kind_created_at_id", "capture_on_created_at_id"]
            ),
            (
                "Inbox, first page of pending requests", PostgresStatements.query(RequestRows.page(status: .pending, limit: 50)),
                ["request_on_status_created_at_id"]
            ),
            (
                "Inbox, first page of done requests", PostgresStatements.query(RequestRows.page(status: .done, limit: 50)),
                ["request_on_status_created_at_id"]
            ),
        ] + searches
    }
}
