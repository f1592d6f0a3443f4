import Foundation
import Testing

/// No SQL is built by interpolating values into its text: values go in as statement arguments
/// (`?`), so nothing a user types, imports or pastes can change a query. The check reads every
/// Swift file under Sources/ and finds each string literal that is SQL (passed as `sql:`, or
/// holding SQL keywords); an interpolation `\(…)` in one is allowed only of a name whose
/// declaration is marked `// sql-fragment` (on its line or the line above): a constant piece of SQL with `?` placeholders, never
/// a value.
@Suite("No SQL built by string interpolation")
struct SQLSafetyTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test func sqlTextInterpolatesOnlyMarkedFragments() throws {
        let files = try Self.swiftFiles(under: Self.sources)
        #expect(files.count > 20, "found only \(files.count) Swift files under \(Self.sources.path)")
        var literals = 0
        var violations: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let fragments = Self.markedFragments(in: text)
            for literal in SwiftStringLiterals.scan(text) where Self.isSQL(literal, in: text) && !Self.binds(literal, in: text) {
                literals += 1
                for expression in literal.interpolations {
                    let name = Self.finalName(of: expression)
                    if !fragments.contains(name) {
                        violations.append(
                            "\(file.lastPathComponent):\(literal.line): \\(\(expression)) in SQL text; pass it as an argument, or mark the declaration of \(name) `// sql-fragment` if it is constant SQL"
                        )
                    }
                }
            }
        }
        print("sql check: \(files.count) files, \(literals) SQL literals, \(violations.count) violations")
        #expect(literals > 10, "the scanner found almost no SQL; is it still reading the sources?")
        #expect(violations.isEmpty, "\n\(violations.joined(separator: "\n"))")
    }

    @Test func theCheckCatchesAnInterpolatedValue() {
        // A check that cannot fail is no check: it must flag these.
        let bad = #"""
            func find(_ name: String, _ db: Database) throws -> Row? {
                try Row.fetchOne(db, sql: "SELECT * FROM request WHERE title = '\(name)'")
            }
            let query = """
                DELETE FROM capture WHERE note LIKE '%\(text)%'
                """
            """#
        let literals = SwiftStringLiterals.scan(bad).filter { Self.isSQL($0, in: bad) }
        #expect(literals.flatMap(\.interpolations) == ["name", "text"])
        #expect(Self.markedFragments(in: bad).isEmpty)

        let good = #"""
            static let columns = "id, title" // sql-fragment
            let (comparison, order) = forward ? ("<", "id DESC") : (">", "id ASC") // sql-fragment
            let sql = "SELECT \(columns) FROM request WHERE title = ?"
            sql += " AND id \(comparison) ? ORDER BY \(order)"
            """#
        let interpolated = SwiftStringLiterals.scan(good).filter { Self.isSQL($0, in: good) }.flatMap(\.interpolations)
        #expect(interpolated == ["columns", "comparison", "order"])
        #expect(Self.markedFragments(in: good) == ["columns", "comparison", "order"])
    }

    @Test func postgresQueryLiteralsBindTheirValuesAndUnsafeSQLDoesNot() {
        // A PostgresQuery written as a literal (a declared PostgresQuery, a function returning
        // one, a statement handed straight to a session) sends each \(…) as a bound value; text
        // given to PostgresQuery(unsafeSQL:) is SQL as written and is checked like any other.
        let code = #"""
            let query: PostgresQuery = "SELECT id FROM request WHERE title = \(title)"
            try session.rows("SELECT id FROM capture WHERE note = \(note)")
            static func page(_ id: Int64) -> PostgresQuery {
                "SELECT id FROM capture WHERE id > \(id) ORDER BY id"
            }
            let unsafe = PostgresQuery(unsafeSQL: "DELETE FROM capture WHERE note = '\(text)'")
            let both: StoreSQL = "SELECT id FROM request WHERE status = \(status)"
            static func page(limit: Int) -> StoreSQL {
                "SELECT id FROM request ORDER BY id LIMIT \(limit)"
            }
            let last = try session.integer("SELECT max(id) FROM capture WHERE kind = \(kind)")
            """#
        let literals = SwiftStringLiterals.scan(code).filter { Self.isSQL($0, in: code) }
        #expect(literals.count == 7)
        #expect(
            literals.filter { Self.binds($0, in: code) }.flatMap(\.interpolations) == ["title", "note", "id", "status", "limit", "kind"])
        #expect(literals.filter { !Self.binds($0, in: code) }.flatMap(\.interpolations) == ["text"])
    }

    // MARK: - What counts as SQL

    /// A literal postgres-nio turns into a statement with bound values: its interpolations are
    /// parameters ($1, $2…), never text. Recognised by what comes right before it: a declared
    /// `PostgresQuery` or Storage's `StoreSQL` (both engines'; its literal text is a
    /// `StaticString`, so nothing made at run time becomes its SQL), a function or computed
    /// property returning one, or
    /// a session's `rows(`, `execute(`, `value(`, `integer(`, `forEachRow(`, `all(`, `first(`.
    static func binds(_ literal: SwiftStringLiterals.Literal, in text: String) -> Bool {
        let before = text[..<literal.start].suffix(60).filter { !$0.isWhitespace }
        let calls = [".rows(", ".execute(", ".value(", ".integer(", ".forEachRow(", ".all(", ".first("]
        return (["PostgresQuery=", "->PostgresQuery{", "StoreSQL=", "->StoreSQL{", ":StoreSQL{"] + calls).contains {
            before.hasSuffix($0)
        }
    }

    static func isSQL(_ literal: SwiftStringLiterals.Literal, in text: String) -> Bool {
        let before = text[..<literal.start].suffix(12)
        return before.replacingOccurrences(of: " ", with: "").hasSuffix("sql:")
            || literal.body.contains(#/\b(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WHERE|VALUES|MATCH|AND|OR|ORDER BY|LIMIT|JOIN)\b/#)
    }

    /// Names declared on a line marked `// sql-fragment`: `let name`, `var name`, `func name`, `case name`.
    static func markedFragments(in text: String) -> Set<String> {
        // `let name`, `var name`, `func name`, and each name of a tuple pattern `let (a, b)`.
        let declaration = #/\b(?:let|var|func)\s+(\([A-Za-z0-9_,\s]+\)|[A-Za-z_][A-Za-z0-9_]*)/#
        var names: Set<String> = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, line) in lines.enumerated() where line.contains("// sql-fragment") {
            // The marker sits on the declaration's line, or alone on the line above it.
            let candidates = [line] + (number + 1 < lines.count ? [lines[number + 1]] : [])
            if let match = candidates.lazy.compactMap({ $0.firstMatch(of: declaration) }).first {
                let pattern = match.output.1.filter { $0 != "(" && $0 != ")" }
                for name in pattern.split(separator: ",") {
                    names.insert(name.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        return names
    }

    /// `group.condition` → `condition`, `Self.rowSelection` → `rowSelection`, `f(x)` → `f`.
    static func finalName(of expression: String) -> String {
        let head = expression.prefix { $0 != "(" && $0 != " " && $0 != "," }
        return String(head.split(separator: ".").last ?? Substring(head))
    }

    static func swiftFiles(under root: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}

/// A small lexer for Swift string literals: "…", """…""", #"…"# forms, escapes, and `\(…)`
/// interpolations with nested parentheses and strings. Comments are skipped.
enum SwiftStringLiterals {
    struct Literal {
        var start: String.Index
        var line: Int
        var body: String
        var interpolations: [String]
    }

    static func scan(_ text: String) -> [Literal] {
        let chars = Array(text)
        var index = 0
        var line = 1
        var found: [Literal] = []
        func at(_ offset: Int) -> Character? { index + offset < chars.count ? chars[index + offset] : nil }
        while index < chars.count {
            let c = chars[index]
            if c == "\n" {
                line += 1
                index += 1
                continue
            }
            if c == "/", at(1) == "/" {
                while index < chars.count, chars[index] != "\n" { index += 1 }
                continue
            }
            if c == "/", at(1) == "*" {
                index += 2
                while index < chars.count, !(chars[index] == "*" && at(1) == "/") {
                    if chars[index] == "\n" { line += 1 }
                    index += 1
                }
                index += 2
                continue
            }
            var hashes = 0
            while at(hashes) == "#" { hashes += 1 }
            guard at(hashes) == "\"" else {
                index += max(1, hashes)
                continue
            }
            let startIndex = text.index(text.startIndex, offsetBy: index)
            let startLine = line
            index += hashes
            let multiline = at(0) == "\"" && at(1) == "\"" && at(2) == "\""
            index += multiline ? 3 : 1
            let (body, interpolations, newlines) = readBody(chars, &index, hashes: hashes, multiline: multiline)
            line += newlines
            found.append(Literal(start: startIndex, line: startLine, body: body, interpolations: interpolations))
        }
        return found
    }

    /// Reads up to the closing delimiter; returns the text (interpolations kept as `\(…)`), the
    /// interpolated expressions, and the newlines crossed.
    private static func readBody(_ chars: [Character], _ index: inout Int, hashes: Int, multiline: Bool) -> (String, [String], Int) {
        var body = ""
        var interpolations: [String] = []
        var newlines = 0
        let closing = String(repeating: "\"", count: multiline ? 3 : 1) + String(repeating: "#", count: hashes)
        let escape = "\\" + String(repeating: "#", count: hashes)
        while index < chars.count {
            if String(chars[index..<min(chars.count, index + closing.count)]) == closing {
                index += closing.count
                return (body, interpolations, newlines)
            }
            if chars[index] == "\n" {
                newlines += 1
                if !multiline { return (body, interpolations, newlines) }
            }
            if String(chars[index..<min(chars.count, index + escape.count)]) == escape {
                let next = index + escape.count
                if next < chars.count, chars[next] == "(" {
                    var depth = 1
                    var cursor = next + 1
                    var expression = ""
                    var inString = false
                    while cursor < chars.count, depth > 0 {
                        let c = chars[cursor]
                        if c == "\"" { inString.toggle() }
                        if !inString { if c == "(" { depth += 1 } else if c == ")" { depth -= 1 } }
                        if depth > 0 { expression.append(c) }
                        cursor += 1
                    }
                    interpolations.append(expression.trimmingCharacters(in: .whitespaces))
                    body += "\\(" + expression + ")"
                    index = cursor
                    continue
                }
                body.append(contentsOf: chars[index..<min(chars.count, next + 1)])
                index = next + 1
                continue
            }
            body.append(chars[index])
            index += 1
        }
        return (body, interpolations, newlines)
    }
}
