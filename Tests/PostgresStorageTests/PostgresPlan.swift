import Foundation
import PostgresNIO
import Scanning
import Storage

@testable import PostgresStorage

/// How PostgreSQL means to run a statement (`EXPLAIN`), read into what the promise "every
/// query on an index" needs: which tables are read whole, which indexes are used.
struct PostgresPlan: Equatable, Sendable {
    /// EXPLAIN's text, one line per row.
    let lines: [String]

    /// The plan of `query` with its bound values, as the server would run it now.
    static func explain(_ query: PostgresQuery, in session: PostgresSession) throws(StorageError) -> PostgresPlan {
        let explained = PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds)
        let lines = try session.rows(explained).map { row throws(StorageError) in
            do {
                return try row.decode(String.self)
            } catch {
                throw StorageError.sql("PostgreSQL at \(session.location.server) answered EXPLAIN with a row tabshell cannot read.")
            }
        }
        return PostgresPlan(lines: lines)
    }

    /// The tables read by a sequential scan ("Seq Scan on capture" → "capture"), in plan order.
    var sequentiallyScannedTables: [String] {
        lines.compactMap { line in
            guard let match = line.firstMatch(of: #/Seq Scan on (\w+)/#) else { return nil }
            return String(match.1)
        }
    }

    /// The indexes the plan reads (index scans, index-only scans, bitmap index scans).
    var indexes: Set<String> {
        Set(
            lines.compactMap { line in
                if let match = line.firstMatch(of: #/Index (?:Only )?Scan (?:Backward )?using (\w+)/#) {
                    return String(match.1)
                }
                if let match = line.firstMatch(of: #/Bitmap Index Scan on (\w+)/#) {
                    return String(match.1)
                }
                return nil
            })
    }

    /// Whether `table` is read without a sequential scan.
    func readsByIndexOnly(_ table: String) -> Bool {
        !sequentiallyScannedTables.contains(table)
    }
}

extension PostgresPlan: CustomStringConvertible {
    var description: String { lines.joined(separator: "\n") }
}
