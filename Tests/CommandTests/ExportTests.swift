import Domain
import Foundation
import SQLiteStorage
import Storage
import Testing

@testable import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ExportTests {
    @Test func jsonExportMatchesGoldenFileAndParses() throws {
        // Given the seeded database
        let workspace = try Workspace()
        _ = try workspace.seeded()

        // When
        let run = runCommand(["history", "export", "--format", "json", "--db", workspace.databaseURL.path])

        // Then: the documented schema, every record, photos with their stored paths
        #expect(run.status == 0, "\(run.message)")
        #expect(run.errors == "", "stderr is not a terminal: no progress")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "tabshell-history")
        #expect(object["version"] as? Int == 1)
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.count == 9)
        #expect(object["recordCount"] as? Int == records.count)
        let photos = records.flatMap { ($0["photos"] as? [[String: Any]]) ?? [] }
        #expect(photos.count == 2)
        for photo in photos {
            let path = try #require(photo["path"] as? String)
            #expect(FileManager.default.fileExists(atPath: path), "exported path \(path) is the stored file")
        }
        try Golden.check(workspace.normalize(run.output), "export.json")
    }

    @Test func csvExportQuotesPerRFC4180() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()

        let run = runCommand(["history", "export", "--format", "csv", "--db", workspace.databaseURL.path])

        #expect(run.status == 0, "\(run.message)")
        #expect(run.output.hasPrefix("id,kind,created_at,barcode,symbology,note,request_id,"))
        // Every line ends in CRLF; the quoted note keeps its own CRLF and tab, doubles its
        // quotes, and writes its escape character as an escape (HistoryImportTests has the rest).
        #expect(run.output.hasSuffix("\r\n"))
        #expect(run.output.contains("\"Pallet 7, \"\"fragile\"\"\r\nsecond line\tand a tab \\u001b[31m\""))
        try Golden.check(workspace.normalize(run.output), "export.csv")
    }

    @Test func csvFieldQuoting() {
        #expect(CSVText.field("plain") == "plain")
        #expect(CSVText.field("a,b") == "\"a,b\"")
        #expect(CSVText.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVText.field("line\nbreak") == "\"line\nbreak\"")
        #expect(CSVText.field("cr\r") == "\"cr\r\"")
        #expect(CSVText.row(["a", "b,c"]) == "a,\"b,c\"\r\n")
    }

    @Test func jsonStringsEscapeControlCharacters() {
        #expect(JSONString.quoted("a\"b\\c\n\u{1B}\u{7F}") == "\"a\\\"b\\\\c\\n\\u001b\\u007f\"")
        #expect(JSONString.quoted("csi\u{9B}31m é") == "\"csi\\u009b31m é\"", "C1 controls are escaped, other non-ASCII is not")
        #expect(JSONString.quoted("\u{FEFF}note") == "\"\\ufeffnote\"", "a byte-order mark is escaped: JSONSerialization drops it raw")
        #expect(ExportTime.string(testNow) == "2025-06-15T15:06:40.000Z")
        #expect(ExportTime.string(Date(timeIntervalSince1970: 0.25)) == "1970-01-01T00:00:00.250Z")
    }

    @Test func emptyHistoryExportsAValidDocument() throws {
        let workspace = try Workspace()
        _ = try AppDatabase.open(at: workspace.databaseURL)

        let json = runCommand(["history", "export", "--format", "json", "--db", workspace.databaseURL.path])
        let csv = runCommand(["history", "export", "--format", "csv", "--db", workspace.databaseURL.path])

        #expect(json.output == "{\"format\":\"tabshell-history\",\"version\":1,\"exportedAt\":\"2025-06-15T15:06:40.000Z\",\"recordCount\":0,\"records\":[]}\n")
        #expect(csv.output.split(separator: "\r\n").count == 1)
    }

    @Test func outputFileIsWrittenAtomicallyAndPrivately() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let target = workspace.url.appendingPathComponent("out.json").path

        let run = runCommand(["history", "export", "--format", "json", "--db", workspace.databaseURL.path, "--output", target])

        #expect(run.status == 0, "\(run.message)")
        #expect(run.output == "")
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.hasPrefix("{\"format\":\"tabshell-history\""))
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // No temporary file is left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path)
        #expect(names.filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func failedExportLeavesNoFile() throws {
        // Given a database that is not a tabshell database, and an existing target file
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not sqlite".utf8).write(to: workspace.databaseURL)
        let target = workspace.url.appendingPathComponent("out.csv")
        try Data("old".utf8).write(to: target)

        let run = runCommand(["history", "export", "--format", "csv", "--db", workspace.databaseURL.path, "--output", target.path])

        #expect(run.status == 1)
        #expect(run.message.contains("not a SQLite database"))
        #expect(try String(contentsOf: target, encoding: .utf8) == "old", "the old file is untouched")
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path)
        #expect(names.filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func missingDatabaseIsAnErrorNotANewFile() throws {
        let workspace = try Workspace()
        let run = runCommand(["history", "export", "--format", "json", "--db", workspace.databaseURL.path])
        #expect(run.status == 1)
        #expect(run.message.contains("There is no database at"))
        #expect(!FileManager.default.fileExists(atPath: workspace.databaseURL.path))
    }

    @Test func progressGoesToATerminalStandardErrorOnly() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let run = runCommand(
            ["history", "export", "--format", "csv", "--db", workspace.databaseURL.path], errorIsTerminal: true)
        #expect(run.errors.contains("Exporting 9 of 9 records (100%)"))
        #expect(run.errors.hasSuffix("Exported 9 records.\n"))
        #expect(!run.output.contains("Exporting"))
    }
}

@Suite struct OutputSinkTests {
    @Test func anUnfinishedFileNeverAppears() throws {
        let workspace = try Workspace()
        let target = workspace.url.appendingPathComponent("half.json").path
        do {
            let sink = try OutputSink(atomicFileAt: target)
            try sink.write(String(repeating: "x", count: 200_000))  // past the buffer: bytes reach the temp file
        }
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).isEmpty, "the temporary file is gone too")
    }

    @Test func aFinishedFileReplacesTheOldOneWhole() throws {
        let workspace = try Workspace()
        let target = workspace.url.appendingPathComponent("out.txt").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let sink = try OutputSink(atomicFileAt: target)
        try sink.write("new\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old", "not replaced before finish")
        try sink.finish()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
    }

    /// A link is followed, not replaced: the file it names gets the output whole (created when
    /// the link dangles, as a shell's `>` would), and the link still names it.
    @Test func aSymbolicLinkKeepsNamingTheFileItNames() throws {
        let workspace = try Workspace()
        let fm = FileManager.default
        let real = workspace.url.appendingPathComponent("real.json").path
        let link = workspace.url.appendingPathComponent("link.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        try fm.createSymbolicLink(atPath: link, withDestinationPath: "real.json")
        let dangling = workspace.url.appendingPathComponent("dangling.json").path
        try fm.createSymbolicLink(atPath: dangling, withDestinationPath: "later.json")

        for path in [link, dangling] {
            let sink = try OutputSink(atomicFileAt: path)
            try sink.write("new\n")
            try sink.finish()
        }

        #expect(try fm.destinationOfSymbolicLink(atPath: link) == "real.json")
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new\n")
        #expect(try fm.destinationOfSymbolicLink(atPath: dangling) == "later.json")
        #expect(try String(contentsOfFile: workspace.url.appendingPathComponent("later.json").path, encoding: .utf8) == "new\n")
    }

    /// A named pipe (and so `/dev/stdout`, a terminal, a device) is written to as it is and never
    /// replaced by a file: `--output /dev/stdout` run as root replaced the device link.
    @Test func aNamedPipeIsWrittenToNotReplaced() throws {
        let workspace = try Workspace()
        let pipe = workspace.url.appendingPathComponent("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        // The reader opens without waiting for a writer, then the sink's open finds it there.
        let reader = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }

        let sink = try OutputSink(atomicFileAt: pipe)
        try sink.write("through the pipe\n")
        try sink.finish()

        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &bytes, bytes.count)
        #expect(count > 0 && String(decoding: bytes[..<max(count, 0)], as: UTF8.self) == "through the pipe\n")
        var info = stat()
        #expect(lstat(pipe, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "still a pipe")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path) == ["pipe"], "no temporary file is left")
    }

    @Test func aMissingFolderIsASentence() {
        #expect(throws: OutputSink.OutputError.self) {
            try OutputSink(atomicFileAt: "/nonexistent-folder-for-tabshell/out.json")
        }
    }
}
