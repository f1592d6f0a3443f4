import ArgumentParser
import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import TerminalScreen
import TestSupport
import Testing

@testable import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

/// Golden files live in Tests/CommandTests/Golden. `UPDATE_GOLDEN=1 swift test --filter CommandTests`
/// rewrites them from what the commands print now; review the diff before committing.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try? String(contentsOf: url, encoding: .utf8)
        #expect(
            actual == expected,
            "\(name) differs from the golden file; if the change is intended run UPDATE_GOLDEN=1 swift test --filter CommandTests",
            sourceLocation: sourceLocation)
    }
}

/// The fixed instant every command test runs at: 2025-06-15T15:06:40Z.
let testNow = Date(timeIntervalSince1970: 1_750_000_000)

/// A temporary folder (TestSupport's, removed afterwards) with a database path in it.
final class Workspace: TemporaryFolder, @unchecked Sendable {
    var databaseURL: URL { url.appendingPathComponent("data/tabshell.sqlite") }

    init() throws {
        try super.init(prefix: "CommandTests")
    }

    /// The demo data at `testNow`, plus a note that needs CSV quoting and a record without a request.
    func seeded() throws -> AppDatabase {
        let db = try AppDatabase.open(at: databaseURL)
        try AppDatabase.seedDemo(db, now: testNow)
        _ = try db.commitCapture(
            CaptureSubmission(kind: .note, note: "Pallet 7, \"fragile\"\r\nsecond line\tand a tab \u{1B}[31m"),
            now: testNow.addingTimeInterval(-30))
        return db
    }

    /// Replaces what differs from run to run (this folder, stored photo UUIDs) with placeholders.
    func normalize(_ text: String) -> String {
        var out = text.replacingOccurrences(of: url.path, with: "<TMP>")
        out = out.replacing(#/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/#, with: "<uuid>")
        return out
    }
}

/// A command run in-process: its output, error output and what it threw.
struct CommandRun {
    var output: String
    var errors: String
    var error: (any Error)?
    /// What parsed the arguments (or tried to): argument-parser's messages and statuses are its.
    var parser: any ParsableArguments.Type = InboxList.self

    /// The exit status the shell would see: 0, argument-parser's code, or 1 for any failure.
    var status: Int32 {
        guard let error else { return 0 }
        if let code = error as? ExitCode { return code.rawValue }
        return parser.exitCode(for: error).rawValue
    }

    /// What argument-parser prints for the error ("Error: …").
    var message: String {
        error.map { parser.fullMessage(for: $0) } ?? ""
    }
}

/// The commands the tests run in-process, by their words (tui's groups hold them; HelpTests and
/// the binary's tests check their help).
let commandBodies: [(words: [String], body: any CommandBody.Type)] = [
    (["inbox", "add"], InboxAdd.self), (["inbox", "list"], InboxList.self), (["inbox", "import"], InboxImport.self),
    (["inbox", "reopen"], InboxReopen.self), (["inbox", "remove"], InboxRemove.self),
    (["history", "list"], HistoryList.self), (["history", "export"], HistoryExport.self), (["history", "import"], HistoryFileImport.self),
    (["catalog", "import"], CatalogImport.self), (["catalog", "list"], CatalogList.self), (["catalog", "clear"], CatalogClear.self),
    (["photos", "add"], PhotosAdd.self), (["photos", "list"], PhotosList.self), (["photos", "remove"], PhotosRemove.self),
    (["db", "copy"], DatabaseCopy.self), (["doctor"], DoctorChecks.self), (["generate"], GenerateData.self),
]

/// The body `arguments` name ("inbox", "add", …), parsed from the arguments after those words.
func parseCommand(_ arguments: [String]) throws -> any CommandBody {
    guard let entry = commandBodies.first(where: { arguments.starts(with: $0.words) }) else {
        throw HarnessFailure("no command body for \(arguments)")
    }
    return try entry.body.parse(Array(arguments.dropFirst(entry.words.count)))
}

/// Parses `arguments` as the shell would and runs the command with a test context.
func runCommand(
    _ arguments: [String], environment: [String: String] = ["LANG": "C.UTF-8", "TERM": "dumb"],
    input: Data = Data(), terminalSize: (rows: Int, columns: Int)? = nil, outputIsTerminal: Bool = false,
    errorIsTerminal: Bool = false, terminalProbe: TerminalProbeResult = .notAsked
) -> CommandRun {
    let output = StringOutput()
    let errors = StringOutput()
    let context = CommandContext(
        output: output, errors: errors, environment: environment, now: { testNow },
        outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal, readInput: { input },
        terminalSize: { terminalSize }, askTerminal: { terminalProbe })
    let parser = commandBodies.first { arguments.starts(with: $0.words) }?.body ?? InboxList.self
    do {
        try parseCommand(arguments).execute(context)
        return CommandRun(output: output.text, errors: errors.text, error: nil, parser: parser)
    } catch {
        return CommandRun(output: output.text, errors: errors.text, error: error, parser: parser)
    }
}

/// A test's output: everything written, kept in memory.
final class StringOutput: TextOutput {
    private(set) var text = ""

    func write(_ text: String) throws(OutputSink.OutputError) { self.text += text }
    func finish() throws(OutputSink.OutputError) {}
}
