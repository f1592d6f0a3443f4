import Foundation
import Testing

@testable import SQLiteStorage
@testable import Storage

/// The statements both engines run: values bound, never text, and PostgreSQL's names turned
/// into SQLite's without touching anything else.
@Suite struct StoreSQLTests {
    @Test func eachValueBecomesTheNextPlaceholderAndAFragmentIsText() {
        let title = "x'); DROP TABLE request; --"
        let missing: String? = nil
        let statement: StoreSQL =
            "SELECT \(RequestRows.columns) FROM request WHERE title = \(title) AND requester = \(missing) LIMIT \(3)"
        #expect(
            statement.text
                == "SELECT id, title, body, kind, status, created_at, done_at, created_by, requester FROM request WHERE title = $1 AND requester = $2 LIMIT $3"
        )
        #expect(statement.binds == [.text(title), .null, .integer(3)])
    }

    @Test func sqliteNamesAreThePostgresNamesInCamelCase() {
        #expect(
            SQLiteNames.camelCased("SELECT pending FROM request_count WHERE id = 1")
                == "SELECT pending FROM requestCount WHERE id = 1")
        #expect(
            SQLiteNames.camelCased("UPDATE request SET status = 'pending', done_at = NULL WHERE id = $1")
                == "UPDATE request SET status = 'pending', doneAt = NULL WHERE id = $1")
        #expect(
            SQLiteNames.camelCased("ON CONFLICT (id) DO UPDATE SET snap_back_target = excluded.snap_back_target")
                == "ON CONFLICT (id) DO UPDATE SET snapBackTarget = excluded.snapBackTarget")
    }

    @Test func quotedTextFunctionsPlaceholdersAndUpperCaseStayAsWritten() {
        // Quoted text (even with a doubled quote), quoted names, a function's name, a
        // placeholder, a number, upper-case words and names already in camelCase.
        let text = #"SELECT 'done_at', 'it''s created_at', "odd_name", date_trunc ('day', created_at), $12, 3_0, CURRENT_TIMESTAMP, createdAt"#
        #expect(
            SQLiteNames.camelCased(text)
                == #"SELECT 'done_at', 'it''s created_at', "odd_name", date_trunc ('day', createdAt), $12, 3_0, CURRENT_TIMESTAMP, createdAt"#)
        // Not UTF-8-splitting: text outside ASCII passes through whole.
        #expect(SQLiteNames.camelCased("SELECT 'café_au_lait', created_by") == "SELECT 'café_au_lait', createdBy")
        #expect(SQLiteNames.camelCased("") == "")
        #expect(SQLiteNames.camelCased("WHERE x = 'unclosed_quote") == "WHERE x = 'unclosed_quote")
    }

    @Test func valuesOfEveryKindGoInAndComeBackOnSQLite() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let instant = Date(timeIntervalSince1970: 1_750_000_000.25)
        let nothing: Int64? = nil
        let row = try db.reading { session throws(StorageError) in
            try session.rows("SELECT \(7) + \(5), \(2.5), \("naïve"), \(instant), \(true), \(nothing)").first
        }
        #expect(try row?.integer(0) == 12)
        #expect(try row?.real(1) == 2.5)
        #expect(try row?.text(2) == "naïve")
        #expect(try row?.time(3) == instant)
        #expect(try row?.boolean(4) == true)
        #expect(try row?.integer(5) == nil)
        // A value of another type is a sentence naming the database, not a crash.
        #expect(throws: StorageError.self) { try row?.time(2) }
    }
}
