import Domain
import Foundation
import TestSupport
import Testing

/// README's Settings picture is what `tabshell --demo` really shows at 80x24 in tmux, every
/// setting included, so the picture cannot drift from the screen again. The temporary data
/// path differs from run to run and is compared as a placeholder. `UPDATE_DOCS=1 swift test
/// --filter ReadmePicturesEndToEndTests` writes the screen into README.md.
@Suite(.serialized, .tags(.e2e))
struct ReadmePicturesEndToEndTests {
    static let readmeURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The block that follows `caption` in the README: its lines' range and text.
    static func block(after caption: String, in readme: String) throws -> (range: Range<String.Index>, text: String) {
        guard let captionRange = readme.range(of: "\n\(caption)\n\n```\n") else {
            throw HarnessError("README.md has no picture after \"\(caption)\"")
        }
        guard let end = readme.range(of: "\n```\n", range: captionRange.upperBound..<readme.endIndex) else {
            throw HarnessError("the picture after \"\(caption)\" is not closed")
        }
        let range = captionRange.upperBound..<end.lowerBound
        return (range, String(readme[range]))
    }

    /// A screen as README shows it: trailing spaces cut, runs of blank rows shortened to one,
    /// no blank rows at the end.
    static func pictured(_ screen: String) -> String {
        var lines: [String] = []
        for line in screen.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(line)
            while line.hasSuffix(" ") { line.removeLast() }
            if line.isEmpty, lines.last?.isEmpty == true { continue }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The picture with the run's own data folder replaced by a placeholder.
    static func comparable(_ picture: String) -> String {
        picture.replacing(#/Data: [^\n]*/#, with: "Data: <the demo's temporary folder>")
    }

    @Test func theSettingsPictureIsTheDemoScreen() throws {
        // In colour, as a reader's terminal shows it, whatever NO_COLOR the test run has.
        let s = try TabShellEndToEndTests.launch("--demo", columns: 80, rows: 24, environment: ["NO_COLOR": ""])
        try s.waitFor(text: "[ Inbox")
        try s.press("4")
        let screen = try s.waitFor(text: "Clear History")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)

        let picture = Self.pictured(screen)
        var readme = try String(contentsOf: Self.readmeURL, encoding: .utf8)
        let block = try Self.block(after: "Settings:", in: readme)
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            readme.replaceSubrange(block.range, with: picture)
            try readme.write(to: Self.readmeURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            Self.comparable(block.text) == Self.comparable(picture),
            "README.md's Settings picture differs from the screen: run UPDATE_DOCS=1 swift test --filter ReadmePicturesEndToEndTests\n\(picture)")
        for title in ["Tab bar while scrolling down", "Scanner layout", "GS1 separator sent as", "Photo previews", "Clear History"] {
            #expect(block.text.contains(title), "README's picture shows \(title)")
        }
    }
}
