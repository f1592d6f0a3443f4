import Foundation
import Testing

/// docs/architecture.md names files a newcomer goes to read: every one of them must exist, so the
/// document cannot keep pointing at files that were renamed or folded away.
@Suite struct ArchitectureDocumentTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func document() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    }

    /// Every `Sources/…`, `Tests/…`, `docs/…` or `scripts/…` path the document names, without a
    /// trailing `/` or punctuation.
    static func namedPaths(in text: String) -> [String] {
        let matches = text.matches(
            of: #/(?:^|[^A-Za-z0-9_/.\-])(?<path>(?:Sources|Tests|docs|scripts|bench)/[A-Za-z0-9_+.\-/]*[A-Za-z0-9_+\-])/#)
        return Array(Set(matches.map { String($0.output.path) })).sorted()
    }

    /// Every bare file name (`AppState+Routing.swift`, `Makefile`) the document names.
    static func namedFiles(in text: String) -> [String] {
        let matches = text.matches(of: #/(?:^|[^/A-Za-z0-9_+.\-])(?<name>[A-Za-z0-9_]+(?:\+[A-Za-z0-9_]+)?\.(?:swift|md|c|h|py))\b/#)
        return Array(Set(matches.map { String($0.output.name) })).sorted()
    }

    /// The names of every file under `Sources`, `Tests`, `docs`, `scripts` and the root.
    static func filesInTree() -> Set<String> {
        var names: Set<String> = ["Package.swift", "Makefile", "README.md"]
        for folder in ["Sources", "Tests", "docs", "scripts", "bench"] {
            let url = root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(atPath: url.path) else { continue }
            for case let path as String in walk { names.insert((path as NSString).lastPathComponent) }
        }
        return names
    }

    @Test func everyPathItNamesExists() throws {
        let paths = Self.namedPaths(in: try Self.document())
        #expect(paths.count > 20, "the document names the files it explains (\(paths.count) found)")
        let missing = paths.filter { !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent($0).path) }
        #expect(missing.isEmpty, "docs/architecture.md names paths that do not exist: \(missing)")
    }

    @Test func everyFileNameItNamesExistsSomewhere() throws {
        let names = Self.namedFiles(in: try Self.document())
        let tree = Self.filesInTree()
        let missing = names.filter { !tree.contains($0) }
        #expect(missing.isEmpty, "docs/architecture.md names files that exist nowhere: \(missing)")
    }

    /// The module table has a row for every folder under Sources (every target) and no other.
    @Test func theModuleTableListsEveryModule() throws {
        let rows = try Self.document().split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: #/^\| `(?<name>[A-Za-z]+)` \|/#) else { return nil }
            return String(match.output.name)
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") }
        #expect(Set(rows) == Set(folders), "rows without a module: \(Set(rows).subtracting(folders)); modules without a row: \(Set(folders).subtracting(rows))")
    }

    /// The check itself finds what it must: the names the old document carried are caught.
    @Test func theCheckCatchesFilesThatAreGone() {
        let old = "state in `Sources/TabShell/TabStates.swift`, handled in `AppReducer.swift` (see docs/keys.md)."
        #expect(Self.namedPaths(in: old) == ["Sources/TabShell/TabStates.swift", "docs/keys.md"])
        #expect(Self.namedFiles(in: old) == ["AppReducer.swift"])
        let tree = Self.filesInTree()
        #expect(!tree.contains("AppReducer.swift") && !tree.contains("TabStates.swift"))
    }
}

/// The module table's imports column against the code: a module importing another of the
/// project's modules the table does not name, or the table naming one it does not import, fails,
/// so the table a newcomer reads is the graph the code has. Outside libraries in the column
/// (GRDB, swift-log, …) are the prose's business; only the project's own modules are checked.
extension ArchitectureDocumentTests {
    /// The project's modules: every folder of Sources/.
    static func modules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The project's modules each module's Swift files import (itself left out).
    static func imports(of module: String, among modules: Set<String>) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(module)")
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: Set<String> = []
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
                // `import X`, `@testable import X`, `public import X`, `import struct X.Y`, …
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                    words[..<at].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "package"].contains($0) })
                else { continue }
                var name = words[at + 1]
                if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(name), at + 2 < words.count {
                    name = words[at + 2]
                }
                let top = String(name.split(separator: ".").first ?? "")
                if modules.contains(top), top != module { found.insert(top) }
            }
        }
        return found
    }

    /// The table's rows: module → the project's modules its imports column names.
    static func table(among modules: Set<String>) throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let named = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .map { String($0.split(separator: " ").first ?? "") }
            rows[module] = Set(named.filter { modules.contains($0) })
        }
        return rows
    }

    @Test func theModuleTableSaysWhatEachModuleImports() throws {
        let modules = try Self.modules()
        let known = Set(modules)
        let rows = try Self.table(among: known)
        // The reading finds imports and rows at all (a walk that found nothing would pass).
        #expect(try Self.imports(of: "Render", among: known).contains("TabShell") && rows.count == modules.count)
        for module in modules {
            guard let said = rows[module] else {
                Issue.record("docs/architecture.md's module table has no row for \(module)")
                continue
            }
            let imported = try Self.imports(of: module, among: known)
            // The executable's row says "all of the above": it may import any of them.
            if module == "tui" { continue }
            #expect(
                imported == said,
                "\(module): imports \(imported.sorted()), the table says \(said.sorted()) (missing \(imported.subtracting(said).sorted()), not imported \(said.subtracting(imported).sorted()))"
            )
        }
        for row in rows.keys where !known.contains(row) {
            Issue.record("docs/architecture.md's module table has a row for \(row), which is not in Sources/")
        }
    }
}
