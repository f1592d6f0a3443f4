import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import TabShell
import Testing

@testable import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DoctorTests {
    /// A compiled terminfo entry (legacy format) named `tabshell-test` with `colors` = `colors`,
    /// so the report does not depend on the machine's terminfo database.
    static func writeTerminfo(in workspace: Workspace, colors: Int16) throws -> String {
        let directory = workspace.url.appendingPathComponent("terminfo/t")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = Array("tabshell-test|test terminal\0".utf8)
        func le16(_ value: Int16) -> [UInt8] {
            let bits = UInt16(bitPattern: value)
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
        var bytes = le16(0o432) + le16(Int16(names.count)) + le16(0) + le16(14) + le16(0) + le16(0)
        bytes += names
        if bytes.count % 2 == 1 { bytes.append(0) }
        for index in 0..<14 { bytes += le16(index == 13 ? colors : -1) }
        try Data(bytes).write(to: directory.appendingPathComponent("tabshell-test"))
        return workspace.url.appendingPathComponent("terminfo").path
    }

    func normalized(_ run: CommandRun, _ workspace: Workspace) -> String {
        Self.withoutFreeSpace(workspace.normalize(run.output))
    }

    /// The report with its free disk space as `<free>`: the one figure that changes while the
    /// tests run (other processes write to the same disk).
    static func withoutFreeSpace(_ output: String) -> String {
        // Across a wrapped line too.
        output.replacing(#/free\s+disk:\s+[0-9.]+\s+[KMGT]?i?B/#, with: "free disk: <free>")
    }

    @Test func healthySetupHasNoProblems() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let terminfo = try Self.writeTerminfo(in: workspace, colors: 256)

        let run = runCommand(
            ["doctor", "--db", workspace.databaseURL.path],
            environment: ["TERM": "tabshell-test", "TERMINFO": terminfo, "LANG": "C.UTF-8"],
            terminalSize: (24, 80))

        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasSuffix("No problems found.\n"))
        try Golden.check(normalized(run, workspace), "doctor-healthy.txt")
    }

    /// Run in a terminal, doctor asks it (the probe stands in for /dev/tty here) and says what
    /// Automatic chose and what the terminal answered.
    @Test func saysWhatTheTerminalAnswered() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let terminfo = try Self.writeTerminfo(in: workspace, colors: 256)
        let environment = ["TERM": "tabshell-test", "TERMINFO": terminfo, "LANG": "C.UTF-8"]
        let sixel = TerminalAnswers(
            primaryAttributes: [63, 1, 2, 4], terminalVersion: "XTerm(390)", cellPixels: CellPixels(width: 10, height: 20))
        let run = runCommand(
            ["doctor", "--db", workspace.databaseURL.path], environment: environment, terminalSize: (24, 160),
            outputIsTerminal: true, terminalProbe: .answered(sixel, windowCellPixels: nil))
        #expect(run.output.contains("ok       photo previews: automatic (sixel) (Settings can choose blocks or off)"), "\(run.output)")
        #expect(run.output.contains("ok       graphics: XTerm(390) answered: sixel yes, kitty no, cells 10x20 pixels"), "\(run.output)")

        let silent = runCommand(
            ["doctor", "--db", workspace.databaseURL.path], environment: environment, terminalSize: (24, 160),
            outputIsTerminal: true, terminalProbe: .noAnswer)
        #expect(silent.output.contains("photo previews: automatic (blocks: the terminal did not answer), 256 colours"), "\(silent.output)")
        #expect(silent.output.contains("note     graphics: the terminal did not answer within 500 ms"))
    }

    @Test func eachProblemComesWithAFixAndExitsNonZero() throws {
        // Given: a small window, a non-UTF-8 locale, no terminfo entry, a world-readable
        // database, a missing photo file, a photo open to others and an orphan in the media folder
        let workspace = try Workspace()
        let db = try workspace.seeded()
        let media = db.media.mediaDirectory
        let stored = try FileManager.default.contentsOfDirectory(atPath: media.path).sorted()
        try FileManager.default.removeItem(at: media.appendingPathComponent(try #require(stored.first)))
        try Data("stray".utf8).write(to: media.appendingPathComponent("stray.png"))
        _ = chmod(media.appendingPathComponent("stray.png").path, 0o600)  // whatever the umask of the run
        _ = chmod(workspace.databaseURL.path, 0o644)
        _ = chmod(media.appendingPathComponent(stored[1]).path, 0o644)

        let run = runCommand(
            ["doctor", "--db", workspace.databaseURL.path],
            environment: ["TERM": "no-such-terminal", "TERMINFO": workspace.url.path, "LANG": "C", "HOME": workspace.url.path],
            terminalSize: (6, 20))

        #expect(run.status == 1)
        #expect(run.output.hasSuffix("6 problems found.\n"))
        try Golden.check(normalized(run, workspace), "doctor-problems.txt")
    }

    @Test func doctorChangesNothing() throws {
        // Given a database one migration behind is impossible to make without the migrator, so
        // check the stronger property on a fresh folder: doctor creates nothing at all.
        let workspace = try Workspace()
        let run = runCommand(["doctor", "--db", workspace.databaseURL.path], environment: ["TERM": "dumb", "LANG": "C.UTF-8"])
        #expect(run.status == 1, "TERM=dumb is a problem")
        #expect(!FileManager.default.fileExists(atPath: workspace.databaseURL.deletingLastPathComponent().path))

        // And on an existing database, no file changes: no migration, no sweep. (SQLite's own
        // -wal and -shm files may appear: a read-only reader of a WAL database needs them.)
        _ = try workspace.seeded()
        let before = try snapshot(workspace.databaseURL.deletingLastPathComponent())
        _ = runCommand(["doctor", "--db", workspace.databaseURL.path, "--full"], environment: ["TERM": "dumb", "LANG": "C.UTF-8"])
        let after = try snapshot(workspace.databaseURL.deletingLastPathComponent())
        func ours(_ files: [String: String]) -> [String: String] {
            files.filter { !$0.key.hasSuffix("tabshell.log") && !$0.key.hasSuffix("-wal") && !$0.key.hasSuffix("-shm") }
        }
        #expect(ours(after) == ours(before))
        #expect(!before.isEmpty)
    }

    /// Every file under `directory` with its size and modification time.
    private func snapshot(_ directory: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let path = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path)
            result[path] = "\(attributes[.size] ?? 0) \(attributes[.modificationDate] ?? 0)"
        }
        return result
    }

    @Test func aDamagedDatabaseIsAProblemWithARecoveryFix() throws {
        // Given a database whose pages past the first are overwritten
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let handle = try FileHandle(forWritingTo: workspace.databaseURL)
        try handle.seek(toOffset: 4096 * 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 4))
        try handle.close()
        let before = try Data(contentsOf: workspace.databaseURL)

        let run = runCommand(["doctor", "--db", workspace.databaseURL.path], environment: ["TERM": "dumb", "LANG": "C.UTF-8"])

        #expect(run.status == 1)
        let database = try #require(run.output.components(separatedBy: "Database\n").last)
        #expect(database.contains("PROBLEM"), "\(run.output)")
        #expect(database.contains("fix: stop every tabshell"), "\(database)")
        #expect(database.contains(".recover"))
        #expect(try Data(contentsOf: workspace.databaseURL) == before, "doctor repairs nothing")
    }

    /// One of each: "1 request, 1 record, 1 photo", never "1 requests".
    @Test func countsOfOneAreSingular() throws {
        let workspace = try Workspace()
        let db = try AppDatabase.open(at: workspace.databaseURL)
        _ = try db.addRequest(title: "Count the pallets", kind: .note, now: testNow)
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: "Three pallets"), now: testNow)

        let run = runCommand(["doctor", "--db", workspace.databaseURL.path], environment: ["TERM": "dumb", "LANG": "C.UTF-8"])

        #expect(run.output.contains("ok       1 request, 1 record, 0 photos"), "\(run.output)")
        #expect(!run.output.contains("1 requests") && !run.output.contains("1 records"), "\(run.output)")
    }

    /// On a terminal the report is wrapped at spaces to its width, each item's later lines under
    /// its first word: no line is wider than the terminal (a path longer than a line is broken
    /// at the edge) and no word that fits a line is cut. Through a pipe each item stays on one line.
    @Test(arguments: Array(30...80))
    func wrapsAtWordsToTheTerminal(columns: Int) throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        // A terminfo entry under a long path, which doctor names whole.
        let entries = try Self.writeTerminfo(in: workspace, colors: 256)
        let long = workspace.url.appendingPathComponent("a-terminfo-folder-whose-name-is-longer-than-any-line/terminfo")
        try FileManager.default.createDirectory(at: long.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: entries, toPath: long.path)
        let environment = ["TERM": "tabshell-test", "TERMINFO": long.path, "LANG": "C.UTF-8"]
        let arguments = ["doctor", "--db", workspace.databaseURL.path]
        let piped = runCommand(arguments, environment: environment, terminalSize: (24, columns)).output
        let shown = runCommand(arguments, environment: environment, terminalSize: (24, columns), outputIsTerminal: true).output
        #expect(piped.contains(long.path + "/t/tabshell-test"), "the long path is in the report")

        let lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > piped.split(separator: "\n", omittingEmptySubsequences: false).count, "something was long enough to wrap")
        for line in lines {
            #expect(TextWidth.of(String(line)) <= columns, "\(columns): \(line)")
        }
        // Nothing lost; only words longer than an item's room are broken.
        // (The free disk space may change between the two runs.)
        let (steadyShown, steadyPiped) = (Self.withoutFreeSpace(shown), Self.withoutFreeSpace(piped))
        #expect(steadyPiped.contains("free disk: <free>"), "\(piped)")
        #expect(steadyShown.filter { !$0.isWhitespace } == steadyPiped.filter { !$0.isWhitespace })
        let shownWords = Set(steadyShown.split(whereSeparator: \.isWhitespace))
        for word in Set(steadyPiped.split(whereSeparator: \.isWhitespace)) where TextWidth.of(String(word)) <= columns - 16 {
            #expect(shownWords.contains(word), "\(columns): \(word) was cut")
        }
        for line in lines where line.hasPrefix("           ") {
            // An item's later lines start under its first word; a fix's under the fix's.
            let indent = line.prefix { $0 == " " }.count
            #expect(indent == 11 || indent == 16 || line.dropFirst(11).hasPrefix("fix: "), "\(columns): \(line)")
        }
    }

    @Test func readsColoursFromCompiledTerminfo() throws {
        let workspace = try Workspace()
        let directory = try Self.writeTerminfo(in: workspace, colors: 8)
        let entry = try #require(Terminfo.find("tabshell-test", environment: ["TERMINFO": directory]))
        #expect(Terminfo.maxColors(at: entry) == 8)
        #expect(Terminfo.find("no-such-terminal", environment: ["TERMINFO": directory, "HOME": workspace.url.path]) == nil)
    }
}
