import Foundation
import Testing

/// docs/architecture.md names files a newcomer goes to read: every one of them must exist, so the
/// document cannot keep pointing at files that were renamed or folded away (issue #25).
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
