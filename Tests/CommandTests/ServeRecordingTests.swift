import Foundation
import Logging
import Recording
import SSHServer
import Testing

@testable import ServePolicy

/// `serve --record DIR` without a network (issue #27): which sessions are recorded, the folder,
/// the file names a client cannot choose, the files' mode. The real server, ssh and tmux are in
/// Tests/EndToEndTests/RecordReplayEndToEndTests.swift.
@Suite struct ServeRecordingTests {
    static func recordings(_ folder: String, sessionLimit: Int = 1 << 20, totalLimit: Int = 1 << 30) throws -> ServeRecordings {
        try ServeRecordings(folder: folder, sessionLimit: sessionLimit, totalLimit: totalLimit, logger: ServeTests.quiet)
    }

    static func launcher(_ data: ServeLauncher.Data, recordings: ServeRecordings) -> ServeLauncher {
        ServeLauncher(
            executable: "/opt/tabshell", data: data, resumeWindowSeconds: 600, logLevel: .info, logger: ServeTests.quiet,
            recordings: recordings)
    }

    @Test func demoSessionsAreRecordedTeamSessionsOnlyWhenPresented() {
        let shell = ServeTests.request()
        let present = ServeTests.request(command: "present")
        let command = ServeTests.request(command: "history list", terminal: false)
        let commandOnATerminal = ServeTests.request(command: "history list")
        #expect(ServeRecordings.records(shell, demo: true))
        #expect(ServeRecordings.records(present, demo: true))
        #expect(!ServeRecordings.records(command, demo: true), "no terminal, nothing drawn")
        #expect(!ServeRecordings.records(shell, demo: false), "never a person's session unless they present")
        #expect(!ServeRecordings.records(commandOnATerminal, demo: false))
        #expect(ServeRecordings.records(present, demo: false))
    }

    @Test func theLauncherGivesATapOnlyToWhatIsRecorded() throws {
        let workspace = try Workspace()
        let folder = workspace.url.appendingPathComponent("casts").path
        let recordings = try Self.recordings(folder)
        let team = Self.launcher(.team(database: workspace.databaseURL), recordings: recordings)
        guard case let .run(teamShell) = team.decide(ServeTests.request()) else { throw HarnessFailure("refused") }
        #expect(teamShell.outputTap == nil)
        let sets = DemoDataSets(root: workspace.url)
        defer { sets.removeAll() }
        let demo = Self.launcher(.demo(sets), recordings: recordings)
        guard case let .run(demoShell) = demo.decide(ServeTests.request("visitor")) else { throw HarnessFailure("refused") }
        let tap = try #require(demoShell.outputTap)
        Array("Inbox".utf8).withUnsafeBytes { tap.childWrote($0) }
        tap.terminalResized(columns: 90, rows: 28)
        tap.sessionEnded()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 1 && names[0].hasSuffix("-s0001-visitor.cast"), "\(names)")
        let path = folder + "/" + names[0]
        let cast = try pollRead(path)
        #expect(cast.header.width == 80 && cast.header.height == 24 && cast.header.environment["TERM"] == "xterm-256color")
        #expect(cast.outputText == "Inbox")
        #expect(cast.events.last?.kind == .resize(columns: 90, rows: 28))
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    /// The recorder writes on a queue of its own: read once what it has written is whole.
    func pollRead(_ path: String) throws -> Cast {
        var last: (any Error)?
        for _ in 0..<100 {
            do {
                let cast = try CastReader.read(path: path)
                if cast.events.count >= 2 { return cast }
            } catch { last = error }
            usleep(20_000)
        }
        throw last ?? HarnessFailure("the recording never had its events")
    }

    @Test func fileNamesAreTheServersWithTheNameReduced() {
        let date = Date(timeIntervalSince1970: 1_795_730_398)
        #expect(ServeRecordings.fileName(person: "ana", session: 3, at: date) == "20261126T215958Z-s0003-ana.cast")
        #expect(ServeRecordings.fileName(person: "../../etc/x", session: 1, at: date) == "20261126T215958Z-s0001-_._.._etc_x.cast")
        #expect(ServeRecordings.fileName(person: "Ana López\u{1B}]0", session: 1, at: date, attempt: 2) == "20261126T215958Z-s0001-Ana_L_pez__0-2.cast")
        #expect(ServeRecordings.fileName(person: String(repeating: "x", count: 100), session: 1, at: date).count == 60)
        #expect(ServeRecordings.fileName(person: "", session: 1, at: date).hasSuffix("-visitor.cast"))
    }

    @Test func aFolderThatIsAFileIsRefusedInOneSentence() throws {
        let workspace = try Workspace()
        let file = workspace.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        #expect(throws: ServeRecordings.FolderError(sentence: "--record needs a folder, and \(file.path) is not one.")) {
            try Self.recordings(file.path)
        }
    }

    @Test func theCastsAlreadyThereCountTowardsTheTotal() throws {
        let workspace = try Workspace()
        let folder = workspace.url.appendingPathComponent("casts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(count: 5000).write(to: folder.appendingPathComponent("old.cast"))
        try Data(count: 9000).write(to: folder.appendingPathComponent("notes.txt"))
        let recordings = try Self.recordings(folder.path, totalLimit: 4000)
        #expect(recordings.budget.used == 5000 && recordings.budget.isExhausted)
        #expect(recordings.tap(for: ServeTests.request(), person: "ana") == nil, "nothing more is recorded")
    }
}
