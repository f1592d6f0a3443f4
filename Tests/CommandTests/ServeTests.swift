import ArgumentParser
import Domain
import Foundation
import Logging
import Presenting
import SSHServer
import Scanning
import TabShell
import Testing

@testable import SQLiteStorage
@testable import ServePolicy
@testable import Storage
@testable import TabShellCommands

/// `tabshell serve`'s decisions, without a network: what each session runs, which commands a
/// client may ask for, names, times and addresses. The real server, ssh client and
/// binary are driven in Tests/EndToEndTests/ServeEndToEndTests.swift.
@Suite struct ServeTests {
    static let quiet = Logger(label: "ServeTests") { _ in SwiftLogNoOpLogHandler() }

    static func request(
        _ name: String = "ana", command: String? = nil, terminal: Bool = true, connection: Int = 1,
        locale: [String: String] = ["LANG": "de_DE.UTF-8", "PATH": "/evil"]
    ) -> SSHSessionRequest {
        SSHSessionRequest(
            peer: SSHPeer(name: name, keyFingerprint: "SHA256:x", loginName: "root", remoteAddress: "127.0.0.1:1", connectionID: connection),
            pseudoTerminal: terminal ? SSHPseudoTerminal(term: "xterm-256color", columns: 80, rows: 24) : nil,
            localeEnvironment: locale.filter { $0.key.hasPrefix("L") }, command: command)
    }

    static func launcher(_ data: ServeLauncher.Data) -> ServeLauncher {
        ServeLauncher(executable: "/opt/tabshell", data: data, resumeWindowSeconds: 600, logLevel: .info, logger: quiet)
    }

    @Test func theAppRunsAsThePersonOnTheirFolderWithTheirLocaleOnly() throws {
        let workspace = try Workspace()
        let decision = Self.launcher(.team(database: workspace.databaseURL)).decide(Self.request("Ana Lopez"))
        guard case let .run(command) = decision else {
            Issue.record("refused: \(decision)")
            return
        }
        let folder = workspace.databaseURL.deletingLastPathComponent().appendingPathComponent("people/Ana%20Lopez").path
        #expect(command.executablePath == "/opt/tabshell")
        #expect(
            command.arguments == [
                "--db", workspace.databaseURL.path, "--as", "Ana Lopez", "--log-level", "info",
                "--session-folder", folder, "--resume-within", "600",
            ])
        #expect(command.environment == ["TERM": "xterm-256color", "LANG": "de_DE.UTF-8", "HOME": folder])
        #expect(command.workingDirectory == folder)
        #expect(FileManager.default.fileExists(atPath: folder))
        // Parsed back by the app's option groups, the arguments name the person and the folder.
        let root = try AppSessionArguments.parse(command.arguments)
        #expect(root.identity.person == "Ana Lopez")
        #expect(root.served.folder == folder)
        #expect(root.served.resumeSeconds == 600)
    }

    @Test func aClientWithoutALocaleGetsUTF8() throws {
        let workspace = try Workspace()
        let decision = Self.launcher(.team(database: workspace.databaseURL)).decide(Self.request(locale: [:]))
        guard case let .run(command) = decision else {
            Issue.record("refused")
            return
        }
        #expect(command.environment["LANG"] == "C.UTF-8")
    }

    @Test(arguments: [
        ("inbox add --title 'Scan the pallet' --kind note", ["inbox", "add"], ["--title", "Scan the pallet", "--kind", "note"]),
        ("inbox add --title=X", ["inbox", "add"], ["--title=X"]),
        ("inbox import -", ["inbox", "import"], ["-"]),
        ("inbox list --json --limit 5", ["inbox", "list"], ["--json", "--limit", "5"]),
        ("inbox reopen 5", ["inbox", "reopen"], ["5"]),
        ("inbox remove 5", ["inbox", "remove"], ["5"]),
        ("history list", ["history", "list"], []),
        ("history list --json", ["history", "list"], ["--json"]),
        ("history export --format csv", ["history", "export"], ["--format", "csv"]),
        ("photos add shelf.jpg", ["photos", "add"], ["shelf.jpg"]),
        ("photos list", ["photos", "list"], []),
        ("photos remove shelf.jpg", ["photos", "remove"], ["shelf.jpg"]),
        ("mcp", ["mcp"], []),
    ])
    func allowedCommandsRunAsThePersonOnTheServersData(command text: String, subcommand: [String], rest: [String]) throws {
        let workspace = try Workspace()
        let decision = Self.launcher(.team(database: workspace.databaseURL)).decide(Self.request("ben", command: text, terminal: false))
        guard case let .run(command) = decision else {
            Issue.record("\(text) refused: \(decision)")
            return
        }
        var expected = subcommand + ["--db", workspace.databaseURL.path, "--as", "ben", "--log-level", "info"]
        if subcommand.first == "photos" {
            expected += ["--session-folder", workspace.databaseURL.deletingLastPathComponent().appendingPathComponent("people/ben").path]
        }
        if subcommand == ["photos", "add"] {
            expected += ["--upload-quota-count", "20", "--upload-quota-bytes", String(100 << 20)]
        }
        #expect(command.arguments == expected + rest)
        #expect(command.environment["TERM"] == nil, "no terminal, no TERM")
        // And the binary's parser reads them as that command (`--as` as the root's option where
        // the command has none): anything but argument-parser's usage error, 64.
        let words = command.arguments.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let run = try BinaryTests().shell(#""$TABSHELL" "# + words + " < /dev/null", in: workspace)
        #expect(run.status != 64, "\(run.err)")
    }

    @Test(arguments: [
        "ls /", "sh -c id", "tabshell", "inbox", "history export --format csv --output /tmp/x", "history list --db /etc/x",
        "inbox add --as eve --title x", "inbox import /etc/passwd", "inbox import - extra", "photos add", "photos add a b",
        "history list --log-level trace", "serve --demo", "doctor", "--demo", "inbox add --title 'open",
        "photos remove --session-folder=/ x", "history export --format csv -o /tmp/x",
        // A value the command's own parser would read as an option (found by ServeFuzzTests).
        "inbox add --title --db", "inbox list --limit --json", "history export --format --output=/tmp/x",
        "inbox remove", "inbox remove 1 2", "inbox reopen --db /etc/x 1",
        "mcp --db /etc/x", "mcp --as eve", "mcp extra", "mcp --longest-wait 3600",
    ])
    func everythingElseIsRefusedWithOneSentence(command text: String) throws {
        let workspace = try Workspace()
        let decision = Self.launcher(.team(database: workspace.databaseURL)).decide(Self.request(command: text, terminal: false))
        guard case let .refuse(sentence, status) = decision else {
            Issue.record("\(text) was allowed")
            return
        }
        #expect(status == 1)
        #expect(!sentence.contains("\n"))
        #expect(sentence.hasSuffix("."))
    }

    @Test func aShellWithoutATerminalAndAnUnusableNameAreRefused() throws {
        let workspace = try Workspace()
        let launcher = Self.launcher(.team(database: workspace.databaseURL))
        guard case .refuse = launcher.decide(Self.request(terminal: false)) else {
            Issue.record("shell without a pty ran")
            return
        }
        guard case .refuse = launcher.decide(Self.request(String(repeating: "x", count: 65))) else {
            Issue.record("a 65-character name ran")
            return
        }
    }

    @Test func demoConnectionsEachGetTheirOwnDataDeletedAfterTheirLastSession() throws {
        let root = try Workspace()
        let sets = DemoDataSets(root: root.url)
        let launcher = Self.launcher(.demo(sets))
        func run(_ request: SSHSessionRequest) throws -> SSHSessionCommand {
            guard case let .run(command) = launcher.decide(request) else { throw HarnessFailure("refused") }
            return command
        }
        let first = try run(Self.request("visitor", connection: 1))
        let again = try run(Self.request("visitor", command: "history list", terminal: false, connection: 1))
        let other = try run(Self.request("visitor", connection: 2))
        func database(_ command: SSHSessionCommand) -> String? {
            command.arguments.firstIndex(of: "--db").map { command.arguments[$0 + 1] }
        }
        #expect(database(first) == database(again), "one data set per connection")
        #expect(database(first) != database(other), "another connection, another data set")
        #expect(first.arguments.suffix(2) == ["--resume-within", "0"], "nothing to come back to in a demo")
        let firstFolder = try #require(database(first)).replacingOccurrences(of: "/tabshell.sqlite", with: "")
        let db = try AppDatabase.open(at: URL(fileURLWithPath: try #require(database(first))))
        #expect(try db.historyCount() == 8, "the demo's records")
        let uploads = PersonFolder(person: "visitor", beside: db.url).uploads
        #expect(uploads.names() == ["coffee-beans-barcode.png", "coffee-beans-front.png"], "the demo's sample photos")

        let end = SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false)
        first.onExit?(end)
        #expect(FileManager.default.fileExists(atPath: firstFolder), "the connection's other session still runs")
        again.onExit?(end)
        #expect(!FileManager.default.fileExists(atPath: firstFolder), "deleted after the connection's last session")
        #expect(sets.count == 1)
        sets.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.url.path).filter { $0.hasPrefix("tabshell-serve-demo") }.isEmpty)
    }

    /// The demo's agents' door: a visitor's session shows its data set's agent code; `mcp CODE`
    /// opens an MCP server onto that data set only, holding it while the agent stays; no code, a
    /// wrong code and a code in team mode each get one sentence.
    @Test func inTheDemoAnAgentReachesOnlyTheDataSetWhoseSessionShowsItsCode() throws {
        let root = try Workspace()
        let sets = DemoDataSets(root: root.url)
        defer { sets.removeAll() }
        let launcher = Self.launcher(.demo(sets))
        guard case let .run(visitor) = launcher.decide(Self.request(connection: 7)),
            case let .run(other) = launcher.decide(Self.request("bo", connection: 8))
        else {
            Issue.record("the visitors' sessions were refused")
            return
        }
        let code = try #require(visitor.environment[DemoDataSets.agentCodeKey], "the session is handed its agent code")
        let otherCode = try #require(other.environment[DemoDataSets.agentCodeKey])
        #expect(code != otherCode, "each data set has its own code")
        #expect(WatchCode(code)?.text == code)
        let visitorDatabase = try #require(visitor.arguments.firstIndex(of: "--db").map { visitor.arguments[$0 + 1] })

        guard case let .run(agent) = launcher.decide(Self.request("helper", command: "mcp \(code.uppercased())", terminal: false, connection: 9))
        else {
            Issue.record("the agent with the right code was refused")
            return
        }
        #expect(agent.arguments == ["mcp", "--db", visitorDatabase, "--as", "helper", "--log-level", "info"])
        #expect(agent.environment[DemoDataSets.agentCodeKey] == nil)

        // The visitor leaves; the data set stays while the agent is in, and goes after.
        let end = SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false)
        visitor.onExit?(end)
        #expect(FileManager.default.fileExists(atPath: visitorDatabase), "the agent still holds the visitor's data set")
        agent.onExit?(end)
        #expect(!FileManager.default.fileExists(atPath: visitorDatabase), "gone with the last one holding it")
        other.onExit?(end)

        // Its code now names nothing: a wrong guess, in the same sentence as one never given.
        let after = launcher.decide(Self.request(command: "mcp \(code)", terminal: false, connection: 10))
        let never = launcher.decide(Self.request(command: "mcp 2345-6789-abcd", terminal: false, connection: 11))
        guard case let .wrongGuess(sentence) = after, case let .wrongGuess(neverSentence) = never else {
            Issue.record("a dead code was not a wrong guess: \(after), \(never)")
            return
        }
        #expect(sentence == "no demo session shows the agent code \(code); check the code in the heading of your tabshell session.")
        #expect(neverSentence == "no demo session shows the agent code 2345-6789-abcd; check the code in the heading of your tabshell session.")

        guard case let .refuse(noCode, _) = launcher.decide(Self.request(command: "mcp", terminal: false, connection: 12)) else {
            Issue.record("mcp without a code ran in the demo")
            return
        }
        #expect(noCode == "in the demo, mcp needs the agent code your tabshell session shows in its heading: ssh HOST mcp CODE.")
        guard case let .refuse(notACode, _) = launcher.decide(Self.request(command: "mcp ../etc", terminal: false, connection: 13)) else {
            Issue.record("a word that is no code was taken")
            return
        }
        #expect(notACode.hasPrefix("`../etc` is not an agent code"))
        #expect(sets.count == 0, "no data set is made for an agent")
    }

    @Test func aTeamServersAgentDoorTakesNoCode() throws {
        let workspace = try Workspace()
        let decision = Self.launcher(.team(database: workspace.databaseURL)).decide(
            Self.request(command: "mcp 2345-6789-abcd", terminal: false))
        guard case let .refuse(sentence, _) = decision else {
            Issue.record("ran: \(decision)")
            return
        }
        #expect(sentence == "on a team server mcp takes no code: run `mcp` alone and the agent files as your key's person.")
    }

    @Test func demoNamesThatAreNoNamesBecomeVisitor() throws {
        let root = try Workspace()
        let sets = DemoDataSets(root: root.url)
        defer { sets.removeAll() }
        guard case let .run(command) = Self.launcher(.demo(sets)).decide(Self.request("bad\u{1B}name")) else {
            Issue.record("refused")
            return
        }
        #expect(command.arguments.contains("visitor"))
    }

    @Test func folderNamesAreDistinctAndNeverAPath() {
        let names = ["ana", "Ana", "ana lopez", "ana%20lopez", "../etc", ".", "..", "a/b", "zoë", ""]
        let folders = names.map(PersonName.folderName)
        #expect(Set(folders).count == names.count)
        for folder in folders {
            #expect(!folder.contains("/") && folder != "." && folder != ".." && !folder.isEmpty, "\(folder)")
        }
        #expect(PersonName.folderName("Ana Lopez") == "Ana%20Lopez")
    }

    @Test func timesAndAddressesAreRead() {
        #expect(TimeText.seconds("10m") == 600)
        #expect(TimeText.seconds("90s") == 90)
        #expect(TimeText.seconds("1h") == 3600)
        #expect(TimeText.seconds("45") == 45)
        #expect(TimeText.seconds("0") == 0)
        for bad in ["", "m", "-1m", "ten", "1y"] { #expect(TimeText.seconds(bad) == nil, "\(bad)") }
        #expect(ListenAddress("127.0.0.1:2222").map { "\($0.host) \($0.port)" } == "127.0.0.1 2222")
        #expect(ListenAddress("[::1]:22").map { "\($0.host) \($0.port)" } == "::1 22")
        #expect(ListenAddress(":2222").map { "\($0.host) \($0.port)" } == "0.0.0.0 2222")
        for bad in ["127.0.0.1", "host:99999", "::1:22", "[::1]22"] { #expect(ListenAddress(bad) == nil, "\(bad)") }
    }

    @Test func theSummaryLineSaysWhoAndWhat() {
        let line = SummaryLogHandler.line(
            event: LogEvent(level: .info, message: "session started", metadata: nil, source: "", file: "", function: "", line: 0),
            metadata: ["person": "ana", "address": "127.0.0.1:5", "command": "(shell)", "pid": "9"], now: Date(timeIntervalSince1970: 0))
        #expect(line.hasSuffix("ana@127.0.0.1:5 session started ((shell))"), "\(line)")
        let hostile = SummaryLogHandler.line(
            event: LogEvent(level: .notice, message: "refused: launcher", metadata: nil, source: "", file: "", function: "", line: 0),
            metadata: ["command": "\u{1B}[2J"], now: Date(timeIntervalSince1970: 0))
        #expect(!hostile.contains("\u{1B}"))
    }
}

/// `--as` and what it leaves in the data.
@Suite struct IdentityCommandTests {
    @Test func inboxAddAndImportKeepWhoAddedAndHistoryListShowsWhoCaptured() throws {
        let workspace = try Workspace()
        let db = try AppDatabase.open(at: workspace.databaseURL)
        let add = runCommand(["inbox", "add", "--title", "Count", "--as", "ben", "--db", workspace.databaseURL.path])
        #expect(add.status == 0, "\(add.message)")
        let imported = runCommand(
            ["inbox", "import", "-", "--as", "cy", "--db", workspace.databaseURL.path],
            input: Data(#"[{"title":"Label","kind":"barcode"}]"#.utf8))
        #expect(imported.status == 0, "\(imported.message)")
        #expect(try db.requestListing(limit: nil).map(\.createdBy).sorted { ($0 ?? "") < ($1 ?? "") } == ["ben", "cy"])

        _ = try db.commitCapture(.init(kind: .note, note: "by ana"), now: testNow, capturedBy: "ana")
        var list = runCommand(["history", "list", "--db", workspace.databaseURL.path])
        #expect(!list.output.contains("BY"), "one person: no column\n\(list.output)")
        _ = try db.commitCapture(.init(kind: .note, note: "by ben"), now: testNow, capturedBy: "ben")
        list = runCommand(["history", "list", "--db", workspace.databaseURL.path])
        #expect(list.output.contains("BY"), "\(list.output)")
        #expect(list.output.split(separator: "\n").contains { $0.contains("by ben") && $0.contains(" ben ") }, "\(list.output)")
        let json = runCommand(["history", "list", "--json", "--db", workspace.databaseURL.path])
        #expect(json.output.contains(#""capturedBy":"ana""#))
        let csv = runCommand(["history", "export", "--format", "csv", "--db", workspace.databaseURL.path])
        let capturedBy = try #require(CSVText.columns.firstIndex(of: "captured_by"))
        let rows = try csvRows(csv.output)
        #expect(rows.dropFirst().allSatisfy { ["ana", "ben"].contains($0[capturedBy]) }, "\(csv.output)")
    }

    @Test func asRefusesWhatIsNoName() {
        for bad in ["", "  ", "a\u{7}b", String(repeating: "n", count: 65)] {
            #expect(throws: (any Error).self, "\(bad)") { try InboxAdd.parse(["--title", "t", "--as", bad]) }
        }
        #expect(PersonName.problem(with: PersonName.unixUser()) == nil)
    }
}

/// What the root command reads of a served session's arguments: the option groups it shares
/// with TabShellCommands (the database, who, the served folder and resume window).
struct AppSessionArguments: ParsableArguments {
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var identity: IdentityOptions
    @OptionGroup var served: ServedSessionOptions
}

struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A person's folder: the session lock and the snapshot to come back to.
@Suite struct PersonFolderTests {
    @Test func oneSessionHoldsTheLockAndASecondWaitsThenGivesUp() throws {
        let workspace = try Workspace()
        let folder = PersonFolder(person: "ana", beside: workspace.databaseURL)
        let first = try #require(folder.lockSession(waitingUpTo: .milliseconds(100)))
        let started = ContinuousClock.now
        #expect(folder.lockSession(waitingUpTo: .milliseconds(300)) == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(300), "it waited for an ending session")
        close(first)
        let second = try #require(folder.lockSession(waitingUpTo: .milliseconds(100)), "free once the first is gone")
        close(second)
    }

    @Test func aSnapshotIsUsedOnceAndOnlyWithinTheWindow() throws {
        let workspace = try Workspace()
        let folder = PersonFolder(person: "ana", beside: workspace.databaseURL)
        let saved = TabShell.AppState().sessionSnapshot(savedAt: testNow, stagingID: nil)
        try folder.save(saved)
        var info = stat()
        #expect(stat(folder.snapshotFile, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(folder.takeSnapshot(within: .seconds(600), now: testNow.addingTimeInterval(599)) == saved)
        #expect(folder.takeSnapshot(within: .seconds(600), now: testNow) == nil, "used up")
        try folder.save(saved)
        #expect(folder.takeSnapshot(within: .seconds(600), now: testNow.addingTimeInterval(601)) == nil, "too old")
        #expect(!FileManager.default.fileExists(atPath: folder.snapshotFile), "and dropped")
        try Data("not json".utf8).write(to: URL(fileURLWithPath: folder.snapshotFile))
        #expect(folder.takeSnapshot(within: .seconds(600), now: testNow) == nil)
    }
}

extension AppDatabase {
    /// The number of committed captures, as History's page gives it (kept by triggers; no count
    /// of the table).
    func historyCount() throws(StorageError) -> Int { try historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount }
}
