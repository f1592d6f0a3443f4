import Foundation
import Logging
import Recording
import SSHServer
import Testing

@testable import ServePolicy

/// `serve --record DIR` without a network: which sessions are recorded, the folder,
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

    /// The recorded output of a cast file: its events' texts, in order.
    static func outputs(of path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        return try lines.compactMap { line in
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any]
            return event?.count == 3 && event?[1] as? String == "o" ? event?[2] as? String : nil
        }
    }

    static func casts(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".cast") }.sorted()
            .map { folder + "/" + $0 }
    }

    @Test func oneVisitorSpendsOnlyItsShareAndTheCutCastEndsCleanly() throws {
        let workspace = try Workspace()
        let folder = workspace.url.appendingPathComponent("casts").path
        let recordings = try ServeRecordings(
            folder: folder, sessionLimit: 1 << 20, totalLimit: 40_000, visitorLimit: 5_000, logger: ServeTests.quiet)
        // The worst: one visitor in four sessions drawing as fast as it can, colours on and a
        // sequence cut at every chunk's end.
        let flooding = (0..<4).compactMap { _ in recordings.tap(for: ServeTests.request(), person: "visitor", visitor: "address 192.0.2.1") }
        for round in 0..<200 {
            for tap in flooding {
                Array("\u{1B}[?25l\u{1B}[31mframe \(round) \u{1B}[4".utf8).withUnsafeBytes { tap.childWrote($0) }
                Array("1mbold\u{1B}[".utf8).withUnsafeBytes { tap.childWrote($0) }
            }
        }
        // Another visitor is still recorded.
        let other = try #require(recordings.tap(for: ServeTests.request(), person: "visitor", visitor: "address 192.0.2.2"))
        Array("hello".utf8).withUnsafeBytes { other.childWrote($0) }
        for tap in flooding + [other] { tap.sessionEnded() }
        // The recorders write on their own queues: wait until every cast has its end.
        let casts = Self.casts(in: folder)
        #expect(casts.count == 5)
        var written: [[String]] = []
        for _ in 0..<500 {
            written = try casts.map(Self.outputs(of:))
            if written.prefix(4).allSatisfy({ $0.last == CastEncoder.cutText }) && written.last?.contains("hello") == true { break }
            usleep(10_000)
        }
        let visitorBytes = try casts.prefix(4).reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int ?? 0) }

        #expect(recordings.budget(of: "address 192.0.2.1").isExhausted)
        #expect(!recordings.budget.isExhausted, "one visitor did not spend everyone's budget")
        #expect(visitorBytes <= 5_000 + 4 * 200, "its share, each cast's header and closing line aside")
        #expect(written.last?.joined().contains("hello") == true)
        for outputs in written.prefix(4) {
            #expect(outputs.last == CastEncoder.cutText, "cut clean: \(outputs.suffix(2))")
            // Before the closing line nothing ends inside a sequence: every ESC [ is finished.
            let before = outputs.dropLast().joined()
            #expect(!before.hasSuffix("\u{1B}") && !before.hasSuffix("\u{1B}["), "\(before.suffix(20).debugDescription)")
        }
    }

    @Test func whatIsRecordedHoldsNothingAPlayersTerminalWouldActOn() throws {
        let workspace = try Workspace()
        let folder = workspace.url.appendingPathComponent("casts").path
        let recordings = try Self.recordings(folder)
        let tap = try #require(recordings.tap(for: ServeTests.request(), person: "ana"))
        let hostile = [
            "\u{1B}]52;c;aGVsbG8=\u{07}", "\u{1B}[c", "\u{1B}[6n", "\u{1B}[?1000h", "\u{1B}[?2004h", "\u{1B}]0;title\u{1B}\\",
            "\u{1B}P+q544e\u{1B}\\", "\u{1B}[21t", "\u{1B}c",
        ]
        Array(("\u{1B}[31mred" + hostile.joined() + "\u{1B}[0m done").utf8).withUnsafeBytes { tap.childWrote($0) }
        tap.sessionEnded()
        let cast = try #require(Self.casts(in: folder).first)
        var text = ""
        for _ in 0..<500 {
            text = try Self.outputs(of: cast).joined()
            if text.contains("done") { break }
            usleep(10_000)
        }
        #expect(text == "\u{1B}[31mred\u{1B}[0m done")
    }
}
