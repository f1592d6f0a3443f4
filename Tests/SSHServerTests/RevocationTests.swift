import Foundation
import TestSupport
import Testing

@testable import SSHServer

/// A key removed from the authorized keys takes effect on connections already open (issue
/// a probe found: the removed person's open connection still opened shells and ran `inbox add`).
/// The real OpenSSH client keeps its connection as a ControlMaster and asks for new sessions
/// over it, as `ssh -o ControlMaster=auto` does.
@Suite(.tags(.e2e)) struct RevocationTests {
    private func multiplexed(_ client: OpenSSH, _ folder: TemporaryFolder, master: Bool) -> [String] {
        ["-o", "ControlMaster=\(master ? "yes" : "no")", "-o", "ControlPath=\(folder.path("cm"))", "-o", "ControlPersist=no"]
    }

    @Test func onReloadARemovedKeysSessionsAreHungUpAndItsConnectionCloses() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let bob = try await SSHKeygen.makeKey("ed25519", comment: "bob", in: folder, name: "bob")
        let keys = try writeAuthorizedKeys([alice.publicLine, bob.publicLine], in: folder)
        // Only the reload on demand (SIGHUP in the app) reads the file here.
        let server = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(keys), checkInterval: .seconds(3600))
        let client = server.client(key: alice)
        let master = try client.start(
            "trap 'echo hung up; exit 0' HUP; echo ready; while :; do sleep 0.05; done",
            extra: multiplexed(client, folder, master: true))
        try await master.waitForOutput("ready")
        let overTheMaster = try await client.run("echo \"in as $PEER_NAME\"", extra: multiplexed(client, folder, master: false))
        let bobsSession = try server.client(key: bob).start("echo ready; read line; echo \"got $line\"")
        try await bobsSession.waitForOutput("ready")

        _ = try writeAuthorizedKeys([bob.publicLine], in: folder)
        let report = try server.server.reloadAuthorizedKeys()?.get()
        let masterEnd = try await master.finish(timeout: .seconds(10))
        bobsSession.write("still here\n")
        let bobsEnd = try await bobsSession.finish()
        await server.server.stop()

        #expect(overTheMaster.stdout == "in as alice\n", "the second session went over the same connection")
        #expect(report?.keys.map(\.name) == ["bob"])
        #expect(masterEnd.stdout == "ready\nhung up\n")
        #expect(masterEnd.stderr.contains("tabshell: your key is no longer authorized: this session is ended."), "\(masterEnd.stderr)")
        #expect(server.logs.contains("key revoked: hanging up the connection's sessions", "person=alice", "sessions=1"))
        #expect(server.logs.contains("closing: the key that let this connection in is no longer authorized", "person=alice"))
        #expect(bobsEnd.stdout == "ready\ngot still here\n", "a key still in the file is untouched")
    }

    @Test func whenTheFileChangesARemovedKeysConnectionStartsNoNewSession() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let keys = try writeAuthorizedKeys([alice.publicLine], in: folder)
        let server = try await TestServer.start(
            in: folder, authorization: .authorizedKeysFile(keys), limits: { $0.revokeEndsSessions = false })
        let client = server.client(key: alice)
        let master = try client.start("echo ready; read line; echo \"got $line\"", extra: multiplexed(client, folder, master: true))
        try await master.waitForOutput("ready")

        _ = try writeAuthorizedKeys([], in: folder)
        try await server.logs.waitFor("key revoked: this connection can start no new session")
        let shell = try await client.run(nil, extra: multiplexed(client, folder, master: false) + ["-tt"])
        let command = try await client.run("inbox add x", extra: multiplexed(client, folder, master: false))
        master.write("still here\n")
        let masterEnd = try await master.finish()
        await server.server.stop()

        let sentence = "tabshell: your key is no longer authorized on this server: no new session can start."
        #expect(shell.status == 1 && shell.stderr.contains(sentence), "\(shell.stderr)")
        #expect(command.status == 1 && command.stderr.contains(sentence) && command.stdout.isEmpty, "\(command.stderr)")
        #expect(masterEnd.stdout == "ready\ngot still here\n", "without revokeEndsSessions the running session is kept")
        #expect(server.logs.contains("refused: the key is no longer authorized", "person=alice"))
    }

    @Test func aRemovedKeysConnectionRunningNoSessionIsClosedAtOnce() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let keys = try writeAuthorizedKeys([alice.publicLine], in: folder)
        let server = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(keys), checkInterval: .seconds(3600))
        let client = server.client(key: alice)
        // A master with no session of its own (`ssh -N`), as ControlPersist leaves one.
        let master = try client.start(nil, extra: multiplexed(client, folder, master: true) + ["-N"])
        try await server.logs.waitFor("authenticated")

        _ = try writeAuthorizedKeys([], in: folder)
        server.server.reloadAuthorizedKeys()
        let masterEnd = try await master.finish(timeout: .seconds(10))
        await server.server.stop()

        #expect(masterEnd.status == 255)
        #expect(server.logs.contains("closing: the key that let this connection in is no longer authorized", "person=alice"))
    }
}
