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

    @Test func aStatementInsideAnotherHasItsPlaceholdersNumberedOn() {
        let condition: StoreSQL = "kind = \("note") OR note = '$1 each' OR id = \(Int64(9))"
        let statement: StoreSQL = "SELECT id FROM capture WHERE id > \(4) AND (\(condition)) LIMIT \(10)"
        #expect(statement.text == "SELECT id FROM capture WHERE id > $1 AND (kind = $2 OR note = '$1 each' OR id = $3) LIMIT $4")
        #expect(statement.binds == [.integer(4), .text("note"), .integer(9), .integer(10)])
        // Nothing to renumber: the text as it is.
        let empty: StoreSQL = ""
        let plain: StoreSQL = "SELECT 1\(empty)"
        #expect(plain.text == "SELECT 1" && plain.binds.isEmpty)
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
        let text = #"SELECT 'done_at', 'it''s created_at', "odd_name", date_trunc('day', created_at), $12, 3_0, CURRENT_TIMESTAMP, createdAt"#
        #expect(
            SQLiteNames.camelCased(text)
                == #"SELECT 'done_at', 'it''s created_at', "odd_name", date_trunc('day', createdAt), $12, 3_0, CURRENT_TIMESTAMP, createdAt"#)
        // A table with a column list after a space is a name, not a function.
        #expect(
            SQLiteNames.camelCased("INSERT INTO capture_line (capture_id, position) VALUES ($1, $2)")
                == "INSERT INTO captureLine (captureId, position) VALUES ($1, $2)")
        // Not UTF-8-splitting: text outside ASCII passes through whole.
        #expect(SQLiteNames.camelCased("SELECT 'café_au_lait', created_by") == "SELECT 'café_au_lait', createdBy")
        #expect(SQLiteNames.camelCased("") == "")
        #expect(SQLiteNames.camelCased("WHERE x = 'unclosed_quote") == "WHERE x = 'unclosed_quote")
    }

    @Test func placeholdersInOrderBecomeSQLitesPositionalOnesAndOthersStayNamed() throws {
        #expect(SQLiteNames.convert("VALUES ($1, $2, '$9', \"$3\"), ($3, $10)").text == "VALUES ($1, $2, '$9', \"$3\"), ($3, $10)")
        #expect(SQLiteNames.convert("VALUES ($1, $2, '$9', \"$3\"), ($3, $10)").positional == false, "$10 is not the fourth")
        let inOrderText = SQLiteNames.convert("INSERT INTO capture_line VALUES ($1, $2, '$9'), ($3, 40, $4)")
        #expect(inOrderText.text == "INSERT INTO captureLine VALUES (?, ?, '$9'), (?, 40, ?)" && inOrderText.positional)
        #expect(SQLiteNames.convert("WHERE a = $1 OR b = $1").positional == false, "a number used twice stays named")
        #expect(SQLiteNames.convert("WHERE a = $2 OR b = $1").positional == false)
        #expect(SQLiteNames.convert("SELECT 1").text == "SELECT 1")
        // Both kinds bind their values on SQLite: in order, and by name.
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let values = StoreSQL(list: (1...300).map { "(\($0), \("row \($0)"))" })
        let inOrder: StoreSQL = "SELECT count(*), sum(n), max(t) FROM (SELECT column1 AS n, column2 AS t FROM (VALUES \(values)))"
        #expect(SQLiteNames.converted(inOrder.text).positional)
        let sums = try db.reading { session throws(StorageError) in
            try session.first(inOrder) { row throws(StorageError) in [try row.integer(0), try row.integer(1)] }
        }
        #expect(sums == [300, 45_150])
        let twice: StoreSQL = "\(7) + \(5)"
        let named = StoreSQL(list: [twice, "$1 * $2"])
        #expect(named.text == "$1 + $2, $1 * $2" && !SQLiteNames.converted("SELECT " + named.text).positional)
    }

    @Test func valuesOfEveryKindGoInAndComeBackOnSQLite() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let instant = Date(timeIntervalSince1970: 1_750_000_000.25)
        let nothing: Int64? = nil
        typealias Read = (Int64?, Double?, String?, Date?, Bool?, Int64?, misread: Bool)
        let read = try db.reading { session throws(StorageError) -> Read? in
            try session.first("SELECT \(7) + \(5), \(2.5), \("naïve"), \(instant), \(true), \(nothing)") { row throws(StorageError) in
                // A value of another type is a sentence naming the database, not a crash.
                var misread = false
                do throws(StorageError) { _ = try row.time(2) } catch { misread = error.message.contains(temp.databaseURL.path) }
                return (try row.integer(0), try row.real(1), try row.text(2), try row.time(3), try row.boolean(4), try row.integer(5), misread)
            }
        }
        let values = try #require(read)
        #expect(values.0 == 12)
        #expect(values.1 == 2.5)
        #expect(values.2 == "naïve")
        #expect(values.3 == instant)
        #expect(values.4 == true)
        #expect(values.5 == nil)
        #expect(values.misread)
    }
}
