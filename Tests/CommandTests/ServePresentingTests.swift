import Foundation
import Logging
import Presenting
import SSHServer
import Testing

@testable import ServePolicy

/// `present` and `watch CODE` under `tabshell serve`, without a network: the words
/// accepted, what each session runs with, and the refusals (a code of no presentation, the total).
@Suite struct ServePresentingTests {
    static let code = "k7mq-3fzp-x9hd"

    @Test func presentTakesWhoMayWatchAndWatchTakesOneCode() {
        #expect((try? AllowedCommand.parse(["present"]).get())?.isPresent == true)
        #expect((try? AllowedCommand.parse(["present"]).get())?.presentWatchers == nil)
        #expect((try? AllowedCommand.parse(["present", "--watchers", "ana,bo"]).get())?.presentWatchers == ["ana", "bo"])
        #expect((try? AllowedCommand.parse(["present", "--watchers=cy"]).get())?.presentWatchers == ["cy"])
        #expect((try? AllowedCommand.parse(["watch", Self.code]).get())?.watchCode == Self.code)
        #expect((try? AllowedCommand.parse(["watch", "K7MQ3FZPX9HD"]).get())?.watchCode != nil)
        for words in [
            ["present", "now"], ["present", "--watchers"], ["watch"], ["watch", "4821"], ["watch", "k7mq-3fzp-x9h0"],
            ["watch", Self.code, Self.code],
        ] {
            guard case .failure = AllowedCommand.parse(words) else {
                Issue.record("accepted \(words)")
                continue
            }
        }
    }

    static func request(_ command: String?, terminal: Bool = true, as name: String = "ana") -> SSHSessionRequest {
        SSHSessionRequest(
            peer: SSHPeer(name: name, keyFingerprint: "SHA256:x", loginName: "root", remoteAddress: "127.0.0.1:1", connectionID: 1),
            pseudoTerminal: terminal ? SSHPseudoTerminal(term: "xterm-256color", columns: 40, rows: 12) : nil, command: command)
    }

    static func launcher(_ presenting: ServePresenting, database: URL) -> ServeLauncher {
        ServeLauncher(
            executable: "/opt/tabshell", data: .team(database: database), resumeWindowSeconds: 600, logLevel: .info,
            logger: Logger(label: "ServePresentingTests") { _ in SwiftLogNoOpLogHandler() }, presenting: presenting)
    }

    static func folder() throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("present-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The code the server chose for a presenting session (its environment), after it opened
    /// its socket (made here by hand: the room is the app's).
    static func opened(_ present: SSHSessionCommand, in presenting: ServePresenting) throws -> String {
        let code = try #require(present.environment["TABSHELL_PRESENT_CODE"])
        _ = FileManager.default.createFile(atPath: presenting.directory + "/" + code, contents: nil)
        return code
    }

    /// A refusal with its code written CODE: what tells one wrong code from another is only
    /// what the client typed.
    static func wrongGuess(_ decision: SSHSessionDecision, code: String) -> String? {
        guard case let .wrongGuess(sentence) = decision else { return nil }
        return sentence.replacingOccurrences(of: code, with: "CODE")
    }

    @Test func presentRunsTheSharedAppUnderACodeTheServerChoseAndWatchRunsNoStoreUntilTheTotal() throws {
        let presenting = try ServePresenting(perPresentation: 3, total: 1, in: NSTemporaryDirectory())
        defer { presenting.remove() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let launcher = Self.launcher(presenting, database: folder.appendingPathComponent("tabshell.sqlite"))

        guard case let .run(present) = launcher.decide(Self.request("present")) else {
            Issue.record("present refused")
            return
        }
        #expect(present.arguments.last == "--present" && present.arguments.contains("--resume-within"))
        #expect(present.environment[ServePresenting.directoryKey] == presenting.directory)
        #expect(present.environment[ServePresenting.watcherLimitKey] == "3")
        let chosen = try #require(present.environment["TABSHELL_PRESENT_CODE"])
        #expect(WatchCode(chosen) != nil)

        // Before its socket is there, the chosen code is as dead as one nobody has.
        let dead = Self.wrongGuess(launcher.decide(Self.request("watch \(Self.code)")), code: Self.code)
        #expect(dead == "no presentation you may watch has the code CODE; check the code on the presenter's screen.")
        #expect(Self.wrongGuess(launcher.decide(Self.request("watch \(chosen)")), code: chosen) == dead)

        let code = try Self.opened(present, in: presenting)
        guard case let .run(watch) = launcher.decide(Self.request("watch \(code.uppercased())", as: "bo")) else {
            Issue.record("watch refused")
            return
        }
        #expect(watch.arguments == ["watch", code], "no --db, no --as: a watcher opens no store")
        #expect(watch.environment[ServePresenting.directoryKey] == presenting.directory)
        #expect(watch.environment["TABSHELL_WATCHER_NAME"] == "bo")
        guard case let .refuse(full, _) = launcher.decide(Self.request("watch \(code)")) else {
            Issue.record("the total was not kept")
            return
        }
        #expect(full.contains("as many watchers as it takes (1)"))
        watch.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false))
        #expect(presenting.watcherCount == 0)
        guard case .refuse = launcher.decide(Self.request("watch \(code)", terminal: false)) else {
            Issue.record("watch without a terminal was accepted")
            return
        }
        // The presenter leaves: its code is forgotten at once, socket or not.
        present.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false))
        #expect(Self.wrongGuess(launcher.decide(Self.request("watch \(code)")), code: code) == dead)
        #expect(presenting.presentationCount == 0)
    }

    @Test func aPresenterWhoNamesWatchersLetsOnlyThemInAndOthersReadWhatAWrongCodeReads() throws {
        let presenting = try ServePresenting(in: NSTemporaryDirectory())
        defer { presenting.remove() }
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let launcher = Self.launcher(presenting, database: folder.appendingPathComponent("tabshell.sqlite"))
        guard case let .run(present) = launcher.decide(Self.request("present --watchers bo,cy")) else {
            Issue.record("present refused")
            return
        }
        let code = try Self.opened(present, in: presenting)
        let dead = Self.wrongGuess(launcher.decide(Self.request("watch \(Self.code)", as: "dee")), code: Self.code)

        let uninvited = Self.wrongGuess(launcher.decide(Self.request("watch \(code)", as: "dee")), code: code)
        #expect(uninvited != nil && uninvited == dead, "a live code refused reads as a dead one")
        for invited in ["bo", "cy", "ana"] {
            guard case .run(let watch) = launcher.decide(Self.request("watch \(code)", as: invited)) else {
                Issue.record("\(invited) was refused")
                continue
            }
            watch.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false))
        }
    }

    @Test func inDemoModeAnyoneWithTheCodeWatches() throws {
        let sets = try DemoDataSets.serving()
        defer { sets.removeAll() }
        let presenting = try ServePresenting(in: NSTemporaryDirectory())
        defer { presenting.remove() }
        let launcher = ServeLauncher(
            executable: "/opt/tabshell", data: .demo(sets), resumeWindowSeconds: 0, logLevel: .info,
            logger: Logger(label: "ServePresentingTests") { _ in SwiftLogNoOpLogHandler() }, presenting: presenting)
        guard case let .refuse(sentence, _) = launcher.decide(Self.request("present --watchers bo")) else {
            Issue.record("named watchers accepted in demo mode")
            return
        }
        #expect(sentence.contains("needs team mode"))
    }

    @Test func aKilledServersPresentationsFolderAndItsSocketsGoAtTheNextStartALiveOnesStay() throws {
        let base = NSTemporaryDirectory() + "present-sweep-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let live = try ServePresenting(in: base)
        defer { live.remove() }
        // A killed server's: its folder, its lock file (held by nobody now) and a presenter's socket.
        let dead = base + "/" + ServePresenting.folderPrefix + "deadbeef"
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: dead + "/" + ServePresenting.lockName, contents: nil)
        _ = FileManager.default.createFile(atPath: dead + "/" + Self.code, contents: nil)
        // Someone else's file of the same prefix that is not a folder stays.
        _ = FileManager.default.createFile(atPath: base + "/" + ServePresenting.folderPrefix + "file", contents: nil)

        #expect(ServePresenting.sweep(in: base) == 1)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live.directory))
        #expect(FileManager.default.fileExists(atPath: base + "/" + ServePresenting.folderPrefix + "file"))
    }
}
