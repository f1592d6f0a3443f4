import Foundation
import Logging
import SSHServer
import Testing

@testable import ServePolicy
@testable import TabShellCommands

/// `serve`'s own limits: the memory each session may use, the sentence a session
/// killed says, and the sweep of demo folders left by a server that did not stop. Served end
/// to end by Tests/EndToEndTests/ServeAttackEndToEndTests.swift.
@Suite struct ServeLimitsTests {
    @Test func sizesAreReadInBinaryUnits() {
        #expect(MemorySize.bytes("512M") == 512 << 20)
        #expect(MemorySize.bytes("1G") == 1 << 30)
        #expect(MemorySize.bytes("1GiB") == 1 << 30)
        #expect(MemorySize.bytes("800k") == 800 << 10)
        #expect(MemorySize.bytes("4096") == 4096)
        #expect(MemorySize.bytes("0") == 0)
        for bad in ["", "M", "-1M", "1.5G", "1T", "99999999999999999999G", "١M"] {
            #expect(MemorySize.bytes(bad) == nil, "\(bad)")
        }
        #expect(MemorySize.text(512 << 20) == "512 MiB")
        #expect(MemorySize.text(2 << 30) == "2 GiB")
    }

    @Test func eachSessionRunsUnderTheLimitAndAKilledOneSaysWhy() throws {
        let workspace = try Workspace()
        let launcher = ServeLauncher(
            executable: "/opt/tabshell", data: .team(database: workspace.databaseURL), resumeWindowSeconds: 600, logLevel: .info,
            logger: ServeTests.quiet, memoryLimit: 512 << 20)
        guard case let .run(command) = launcher.decide(ServeTests.request()) else {
            Issue.record("refused")
            return
        }
        #expect(command.memoryLimit == 512 << 20)
        let killed = command.sentenceAtEnd?(SSHSessionEnd(termination: .killed(signal: 9), wasHungUp: false))
        #expect(killed?.contains("up to 512 MiB of memory") == true, "\(killed ?? "nil")")
        #expect(command.sentenceAtEnd?(SSHSessionEnd(termination: .killed(signal: 1), wasHungUp: true)) == nil, "hung up by the server")
        #expect(command.sentenceAtEnd?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false)) == nil)
    }

    @Test func theSweepRemovesOnlyDeadServersFolders() throws {
        let workspace = try Workspace()
        let temporary = workspace.url
        let live = try DemoDataSets.serving(in: temporary)
        _ = try live.acquire(connectionID: 1, person: "visitor", now: Date())
        // A server that was SIGKILLed: its parent and lock file are there, nobody holds the lock.
        let dead = temporary.appendingPathComponent(DemoDataSets.parentPrefix + "dead", isDirectory: true)
        for set in ["tabshell-serve-demo-a", "tabshell-serve-demo-b"] {
            try FileManager.default.createDirectory(at: dead.appendingPathComponent(set), withIntermediateDirectories: true)
        }
        #expect(
            FileManager.default.createFile(
                atPath: dead.appendingPathComponent(DemoDataSets.lockName).path, contents: nil,
                attributes: [.modificationDate: Date().addingTimeInterval(-600)]))
        // A server that has just made its lock file and is about to flock it.
        let locking = temporary.appendingPathComponent(DemoDataSets.parentPrefix + "locking", isDirectory: true)
        try FileManager.default.createDirectory(at: locking, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: locking.appendingPathComponent(DemoDataSets.lockName).path, contents: nil))
        // Another server that just made its folder and has not locked it yet.
        let starting = temporary.appendingPathComponent(DemoDataSets.parentPrefix + "starting", isDirectory: true)
        try FileManager.default.createDirectory(at: starting, withIntermediateDirectories: true)

        #expect(DemoDataSets.sweep(in: temporary) == 2)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: starting.path), "made just now: not taken for dead")
        #expect(FileManager.default.fileExists(atPath: locking.path), "its lock file made just now: not taken for dead")
        #expect(FileManager.default.fileExists(atPath: live.parent.path), "a live server's lock is held")
        #expect(DemoDataSets.sweep(in: temporary, now: Date().addingTimeInterval(120)) == 0)
        #expect(!FileManager.default.fileExists(atPath: starting.path), "still unlocked a minute later")
        #expect(FileManager.default.fileExists(atPath: live.parent.path))

        live.removeAll()
        #expect(!FileManager.default.fileExists(atPath: live.parent.path), "a server that stops removes its own parent")
    }
}
