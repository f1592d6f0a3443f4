import Domain
import Foundation
import Storage
import TabShell
import Testing

/// A few runs of the built binary for what only a real process shows: exit statuses, the
/// stdout/stderr split, and a reader closing the pipe early.
@Suite struct BinaryTests {
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["TABSHELL_BIN"] { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/tabshell")
    }

    /// Runs `script` in bash with `$TABSHELL` set; returns stdout, stderr and the status.
    func shell(_ script: String, in workspace: Workspace) throws -> (out: String, err: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = [
            "TABSHELL": Self.binary.path, "DB": workspace.databaseURL.path, "PATH": "/usr/bin:/bin",
            "HOME": workspace.url.path, "LANG": "C.UTF-8",
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self), process.terminationStatus)
    }

    @Test func exportIntoAClosedPipeEndsQuietly() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let db = try workspace.seeded()
        for index in 0..<3000 {
            _ = try db.commitCapture(.init(kind: .note, note: "Note \(index) with some text to fill the pipe"), now: testNow)
        }

        let result = try shell(#"set -o pipefail; "$TABSHELL" history export --format csv --db "$DB" | head -n 1; echo "status ${PIPESTATUS[0]}""#, in: workspace)

        #expect(
            result.out == CSVText.row(CSVText.columns) + "status 141\n"
        )
        #expect(result.err == "", "no crash report, no message")
    }

    @Test func importErrorsGoToStandardErrorWithStatus1() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()

        let result = try shell(#"echo '[{"title": ""}, {"kind": "x"}]' | "$TABSHELL" inbox import - --db "$DB""#, in: workspace)

        #expect(result.status == 1)
        #expect(result.out == "")
        #expect(result.err.contains("standard input: requests[0]: \"title\" is empty."))
        #expect(result.err.contains("standard input: requests[1]: \"title\" is missing."))
        #expect(result.err.contains("Error: 3 problems in standard input; nothing was imported."))
    }

    /// A full disk under standard output fails the command with the reason, help and version
    /// included (they are output too: `tabshell --help > manual.txt` on a full disk kept nothing).
    @Test func outputThatCannotBeWrittenFailsWithTheReason() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        _ = try workspace.seeded()
        for words in ["--version", "--help", "history export --help", "history export --format json --db \"$DB\"", "inbox list --db \"$DB\""] {
            let run = try shell(#""$TABSHELL" "# + words + " > /dev/full", in: workspace)
            #expect(run.status == 1, "\(words)")
            #expect(run.err == "Error: Cannot write the output: no space left on device.\n", "\(words): \(run.err)")
        }
    }

    /// `--output` naming standard output (through its /proc link) writes to whatever it is: a
    /// pipe gets the export, a redirected file gets it whole, and neither is replaced by a file
    /// made beside it.
    @Test func anOutputNamingStandardOutputWritesWhereItGoes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let piped = try shell(#""$TABSHELL" history export --format jsonl --output /proc/self/fd/1 --db "$DB" | wc -l"#, in: workspace)
        #expect(piped.err == "" && Int(piped.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "\(piped)")
        let redirected = try shell(
            #"cd "$HOME" && "$TABSHELL" history export --format jsonl --output /proc/self/fd/1 --db "$DB" > out.jsonl && "$TABSHELL" history export --format jsonl --db "$DB" | cmp - out.jsonl && ls -A"#,
            in: workspace)
        #expect(redirected.status == 0 && redirected.err == "", "\(redirected)")
        #expect(!redirected.out.contains(".tmp-"), "\(redirected.out)")
    }

    /// A process substitution or a pipe is read like standard input; a folder, a missing file
    /// and an unreadable one get the reason in words; a device is read only to the size limit.
    @Test func anImportReadsWhatTheShellHandsItAndSaysWhyItCannot() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let substituted = try shell(
            #""$TABSHELL" inbox import <(echo '[{"title": "Count the pallets"}]') --db "$DB" && "$TABSHELL" inbox list --db "$DB""#, in: workspace)
        #expect(substituted.status == 0, "\(substituted.err)")
        #expect(substituted.out.hasPrefix("Imported 1 request.\n") && substituted.out.contains("Count the pallets"), "\(substituted.out)")

        let folder = try shell(#"cd "$HOME" && mkdir -p exports && "$TABSHELL" history import exports --db "$DB""#, in: workspace)
        #expect(folder.status == 1 && folder.err == "Error: Cannot read exports: it is a folder, not a file.\n", "\(folder.err)")
        let missing = try shell(#""$TABSHELL" inbox import nowhere.json --db "$DB""#, in: workspace)
        #expect(missing.status == 1 && missing.err == "Error: Cannot read nowhere.json: no such file or directory.\n", "\(missing.err)")
        let device = try shell(#"timeout -s KILL 60 "$TABSHELL" history import /dev/zero --db "$DB""#, in: workspace)
        #expect(device.status == 1 && device.err.hasPrefix("/dev/zero: The file is larger than 64 MiB.\n"), "\(device.err)")
    }

    /// A named pipe given as the database is refused before it is opened, by the app and by
    /// doctor: opening it would wait for a writer forever (`timeout` kills the run if it
    /// does).
    @Test func aNamedPipeOrADeviceIsRefusedAsTheDatabaseAtOnce() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let pipe = try shell(#"cd "$HOME" && mkfifo store.db && timeout -s KILL 60 "$TABSHELL" history list --db store.db"#, in: workspace)
        #expect(pipe.status == 1, "\(pipe.err)")
        #expect(pipe.err.contains("Cannot open ") && pipe.err.contains("store.db: it is not a regular file (a pipe, a device or a socket)."), "\(pipe.err)")
        let device = try shell(#"timeout -s KILL 60 "$TABSHELL" inbox list --db /dev/null"#, in: workspace)
        #expect(device.status == 1 && device.err.contains("/dev/null: it is not a regular file"), "\(device.err)")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.lock"), "nothing is made beside a device")
        #expect(!FileManager.default.fileExists(atPath: "/dev/tabshell.log"), "not even a log")
        let doctor = try shell(#"cd "$HOME" && timeout -s KILL 60 "$TABSHELL" doctor --db store.db"#, in: workspace)
        #expect(doctor.status == 1, "\(doctor.out)")
        #expect(doctor.out.contains("store.db: it is not a regular file (a pipe, a device or a socket)."), "\(doctor.out)")
        #expect(doctor.out.contains("fix: give --db the path of a database file"), "\(doctor.out)")
    }

    @Test func aFileWrongInEveryEntryListsTheFirstTwentyProblemsAndCountsThemAll() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let entries = (0..<30).map { #"{"title": "T\#($0)", "kind": "note", "requester": "amy"}"# }.joined(separator: ",")
        let file = workspace.url.appendingPathComponent("requests.json")
        try Data("[\(entries)]".utf8).write(to: file)

        let result = try shell(#"cd "$HOME" && "$TABSHELL" inbox import requests.json --db "$DB""#, in: workspace)

        let lines = result.err.split(separator: "\n")
        #expect(result.status == 1)
        #expect(lines.filter { $0.contains(#"unknown key "requester""#) }.count == 20)
        #expect(lines.contains("requests.json: requests[19]: unknown key \"requester\" (known: body, from, kind, title)."))
        #expect(lines.contains("requests.json: … and 10 more."))
        #expect(lines.last == "Error: 30 problems in requests.json; nothing was imported.")
    }

    /// argument-parser quotes a bad option or value as typed; a terminal reading it must not act on it.
    @Test func anArgumentErrorEchoesNoEscape() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let hostile = #"$'\e]0;owned\a\xc2\x9b2J\xe2\x80\xae'"#
        for arguments in ["--bogus\(hostile)", "history export --format \(hostile)", "inbox list --limit \(hostile)"] {
            let result = try shell(#""$TABSHELL" "# + arguments + #" --db "$DB""#, in: workspace)
            #expect(result.status == 64, "\(arguments): \(result.err)")
            #expect(result.err.hasPrefix("Error: ") && result.err.contains("␛]0;owned␇"), "\(arguments): \(result.err)")
            let unsafe = result.err.unicodeScalars.filter { $0 != "\n" && Sanitizer.isUnsafe($0) }
            #expect(unsafe.isEmpty, "\(arguments): \(result.err.debugDescription)")
        }
    }

    @Test func helpAndVersionGoToStandardOutput() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let result = try shell(#""$TABSHELL" --version && "$TABSHELL" history export --help"#, in: workspace)
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("0.1.0\n"))
        #expect(result.out.contains("--format <format>"))
        #expect(result.err == "")
    }
}
