import Foundation
import Logging
import SSHServer
import Testing

@testable import ServePolicy

/// `present` and `watch CODE` under `tabshell serve` (issue #27), without a network: the words
/// accepted, what each session runs with, and the refusals (a code of no presentation, the total).
@Suite struct ServePresentingTests {
    @Test func presentTakesNothingAndWatchTakesOneCodeOfDigits() {
        #expect((try? AllowedCommand.parse(["present"]).get())?.isPresent == true)
        #expect((try? AllowedCommand.parse(["watch", "4821"]).get())?.watchCode == "4821")
        for words in [["present", "now"], ["watch"], ["watch", "48a1"], ["watch", "482"], ["watch", "123456789"], ["watch", "1234", "5678"]] {
            guard case .failure = AllowedCommand.parse(words) else {
                Issue.record("accepted \(words)")
                continue
            }
        }
    }

    static func request(_ command: String?, terminal: Bool = true) -> SSHSessionRequest {
        SSHSessionRequest(
            peer: SSHPeer(name: "ana", keyFingerprint: "SHA256:x", loginName: "root", remoteAddress: "127.0.0.1:1", connectionID: 1),
            pseudoTerminal: terminal ? SSHPseudoTerminal(term: "xterm-256color", columns: 40, rows: 12) : nil, command: command)
    }

    static func launcher(_ presenting: ServePresenting, database: URL) -> ServeLauncher {
        ServeLauncher(
            executable: "/opt/tabshell", data: .team(database: database), resumeWindowSeconds: 600, logLevel: .info,
            logger: Logger(label: "ServePresentingTests") { _ in SwiftLogNoOpLogHandler() }, presenting: presenting)
    }

    @Test func presentRunsTheSharedAppAndWatchRunsNoStoreUntilTheTotal() throws {
        let presenting = try ServePresenting(perPresentation: 3, total: 1)
        defer { presenting.remove() }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("present-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let launcher = Self.launcher(presenting, database: folder.appendingPathComponent("tabshell.sqlite"))

        guard case let .run(present) = launcher.decide(Self.request("present")) else {
            Issue.record("present refused")
            return
        }
        #expect(present.arguments.last == "--present" && present.arguments.contains("--resume-within"))
        #expect(present.environment[ServePresenting.directoryKey] == presenting.directory)
        #expect(present.environment[ServePresenting.watcherLimitKey] == "3")

        guard case let .refuse(sentence, status) = launcher.decide(Self.request("watch 4821")) else {
            Issue.record("a code of no presentation was accepted")
            return
        }
        #expect(sentence.contains("no presentation has the code 4821") && status != 0)

        // A live presentation is its socket in the folder.
        FileManager.default.createFile(atPath: presenting.directory + "/4821", contents: nil)
        guard case let .run(watch) = launcher.decide(Self.request("watch 4821")) else {
            Issue.record("watch refused")
            return
        }
        #expect(watch.arguments == ["watch", "4821"], "no --db, no --as: a watcher opens no store")
        #expect(watch.environment[ServePresenting.directoryKey] == presenting.directory)
        guard case let .refuse(full, _) = launcher.decide(Self.request("watch 4821")) else {
            Issue.record("the total was not kept")
            return
        }
        #expect(full.contains("as many watchers as it takes (1)"))
        watch.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false))
        #expect(presenting.watcherCount == 0)
        guard case .refuse = launcher.decide(Self.request("watch 4821", terminal: false)) else {
            Issue.record("watch without a terminal was accepted")
            return
        }
    }
}
