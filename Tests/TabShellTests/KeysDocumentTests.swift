import Foundation
import TabShell
import Testing

/// docs/keys.md is generated from `KeyMap`, like the help sheet and the hint line; this test
/// fails when the table changes and the document does not. `UPDATE_DOCS=1 swift test` rewrites it.
@Suite struct KeysDocumentTests {
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/keys.md")

    static func generated() -> String {
        var out = "# Keys\n\nGenerated from `KeyMap` (Sources/TabShell/KeyMap.swift), the same table that draws the\nhint line and the `?` help sheet. Regenerate with `UPDATE_DOCS=1 swift test --filter KeysDocumentTests`.\n"
        for line in KeyMap.helpLines(unicode: true) {
            switch line {
            case let .section(title):
                out += "\n## \(title)\n\n| keys | does |\n| --- | --- |\n"
            case let .binding(keys, help):
                out += "| `\(keys.replacingOccurrences(of: "|", with: "\\|"))` | \(help) |\n"
            }
        }
        return out
    }

    @Test func keysDocumentMatchesTheKeyTable() throws {
        let expected = Self.generated()
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try expected.write(to: Self.documentURL, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOf: Self.documentURL, encoding: .utf8)
        #expect(actual == expected, "docs/keys.md is out of date: run UPDATE_DOCS=1 swift test --filter KeysDocumentTests")
    }
}
