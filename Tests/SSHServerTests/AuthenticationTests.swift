import Foundation
import TestSupport
import Testing

@testable import SSHServer

/// The real OpenSSH client with real keys against the server on loopback.
@Suite(.tags(.e2e)) struct AuthenticationTests {
    @Test func ed25519AndECDSAKeysAreLetInUnderTheirNames() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "Alice Martin", in: folder, name: "alice")
        let bob = try await SSHKeygen.makeKey("ecdsa", bits: 384, comment: "bob", in: folder, name: "bob")
        let keys = try writeAuthorizedKeys([alice.publicLine, bob.publicLine], in: folder)
        let server = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(keys))

        let asAlice = try await server.client(key: alice).run("echo \"$PEER_NAME|$PEER_KEY\"")
        let asBob = try await server.client(key: bob).run("echo \"$PEER_NAME|$PEER_KEY\"")
        await server.server.stop()

        #expect(asAlice.status == 0 && asAlice.stdout == "Alice Martin|\(alice.fingerprint)\n")
        #expect(asBob.status == 0 && asBob.stdout == "bob|\(bob.fingerprint)\n")
        #expect(server.logs.contains("authenticated", "fingerprint=\(alice.fingerprint)", "person=Alice Martin"))
        // Fingerprints and names are logged; key material never is.
        let material = alice.publicLine.split(separator: " ")[1]
        #expect(!server.logs.all.contains { $0.contains(material) })
    }

    @Test func anUnknownKeyIsRefused() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let stranger = try await SSHKeygen.makeKey("ed25519", comment: "stranger", in: folder, name: "stranger")
        let server = try await TestServer.start(
            in: folder, authorization: .authorizedKeysFile(try writeAuthorizedKeys([alice.publicLine], in: folder)))

        let result = try await server.client(key: stranger).run("echo in")
        let anonymous = try await server.client(key: nil).run("echo in")
        await server.server.stop()

        #expect(result.status == 255 && result.stdout.isEmpty)
        #expect(result.stderr.contains("Permission denied (publickey)"))
        #expect(anonymous.status == 255 && anonymous.stderr.contains("Permission denied (publickey)"))
        #expect(server.logs.contains("key refused: not authorized", "fingerprint=\(stranger.fingerprint)"))
    }

    @Test func anRSAKeyIsReportedAtStartByLineAndRefused() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let dave = try await SSHKeygen.makeKey("rsa", bits: 2048, comment: "dave", in: folder, name: "dave")
        let keys = try writeAuthorizedKeys([alice.publicLine, dave.publicLine], in: folder)
        let server = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(keys))

        let result = try await server.client(key: dave).run("echo in")
        await server.server.stop()

        let problems = server.report.authorizedKeys?.problems ?? []
        #expect(problems.map(\.line) == [2])
        #expect(
            server.report.lines.contains {
                $0.hasPrefix("\(keys) line 2: RSA keys are not supported") && $0.contains("dave should use an Ed25519 key")
            })
        #expect(result.status == 255 && result.stderr.contains("Permission denied (publickey)"))
        #expect(server.logs.contains("disconnected before authenticating"))
    }

    @Test func theOpenPolicyLetsAnyoneInWithoutAKey() async throws {
        let folder = try TemporaryFolder()
        let server = try await TestServer.start(in: folder, authorization: .open)
        var visitor = server.client(key: nil)
        visitor.login = "visitor"

        let result = try await visitor.run("echo \"$PEER_NAME|$PEER_KEY\"")
        await server.server.stop()

        #expect(result.status == 0 && result.stdout == "visitor|none\n")
    }

    @Test func aCustomPolicyNamesThePerson() async throws {
        let folder = try TemporaryFolder()
        let carol = try await SSHKeygen.makeKey("ecdsa", comment: "laptop", in: folder, name: "carol")
        let fingerprint = carol.fingerprint
        let server = try await TestServer.start(
            in: folder,
            authorization: .custom { offered in
                offered.fingerprint.sha256 == fingerprint ? "Carol (from the database)" : nil
            })

        let result = try await server.client(key: carol).run("echo \"$PEER_NAME\"")
        await server.server.stop()

        #expect(result.stdout == "Carol (from the database)\n")
    }

    @Test func aClientOfferingTooManyKeysIsDisconnected() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let first = try await SSHKeygen.makeKey("ed25519", comment: "one", in: folder, name: "one")
        let second = try await SSHKeygen.makeKey("ed25519", comment: "two", in: folder, name: "two")
        let server = try await TestServer.start(
            in: folder, authorization: .authorizedKeysFile(try writeAuthorizedKeys([alice.publicLine], in: folder)),
            limits: { $0.maxAuthTries = 1 })

        let result = try await server.client(key: first).run(
            "echo in", extra: ["-o", "IdentityFile=\(second.privateKeyPath)", "-o", "IdentityFile=\(alice.privateKeyPath)"])
        await server.server.stop()

        #expect(result.status == 255 && result.stdout.isEmpty)
        #expect(result.stderr.contains("Too many authentication failures"))
    }

    @Test func theKeysFileIsReReadWhenItChangesWithoutDroppingSessions() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let bob = try await SSHKeygen.makeKey("ed25519", comment: "bob", in: folder, name: "bob")
        let keys = try writeAuthorizedKeys([alice.publicLine], in: folder)
        // Running sessions of a removed key are kept only with revokeEndsSessions off
        // (RevocationTests holds the default, which hangs them up).
        let server = try await TestServer.start(
            in: folder, authorization: .authorizedKeysFile(keys), limits: { $0.revokeEndsSessions = false })
        let alicesSession = try server.client(key: alice).start("echo ready; read line; echo \"got $line\"")
        try await alicesSession.waitForOutput("ready")
        let before = try await server.client(key: bob).run("echo in")

        _ = try writeAuthorizedKeys([bob.publicLine], in: folder)
        try await server.logs.waitFor("authorized keys read")
        let after = try await server.client(key: bob).run("echo in")
        let aliceAfter = try await server.client(key: alice).run("echo in")
        alicesSession.write("still here\n")
        let alicesEnd = try await alicesSession.finish()
        await server.server.stop()

        #expect(before.status == 255)
        #expect(after.status == 0 && after.stdout == "in\n")
        #expect(aliceAfter.status == 255)
        #expect(alicesEnd.status == 0 && alicesEnd.stdout == "ready\ngot still here\n")
    }

    @Test func theKeysFileIsReReadOnDemand() async throws {
        let folder = try TemporaryFolder()
        let bob = try await SSHKeygen.makeKey("ed25519", comment: "bob", in: folder, name: "bob")
        let keys = try writeAuthorizedKeys([], in: folder)
        let server = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(keys), checkInterval: .seconds(3600))
        let before = try await server.client(key: bob).run("echo in")

        _ = try writeAuthorizedKeys([bob.publicLine, "ssh-rsa AAAA carol"], in: folder)
        let report = try server.server.reloadAuthorizedKeys()?.get()
        let after = try await server.client(key: bob).run("echo in")
        await server.server.stop()

        #expect(before.status == 255)
        #expect(report?.keys.map(\.name) == ["bob"] && report?.problems.map(\.line) == [2])
        #expect(after.status == 0)
    }

    @Test func theHostKeyIsTheSameAfterARestart() async throws {
        let folder = try TemporaryFolder()
        let alice = try await SSHKeygen.makeKey("ed25519", comment: "alice", in: folder, name: "alice")
        let keys = try writeAuthorizedKeys([alice.publicLine], in: folder)
        let first = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(keys))
        let firstConnect = try await first.client(key: alice).run("echo one")
        await first.server.stop()

        let second = try await TestServer.start(in: folder, authorization: .authorizedKeysFile(keys))
        var strict = second.client(key: alice)
        strict.strictHostKeyChecking = "yes"
        let secondConnect = try await strict.run("echo two")
        await second.server.stop()

        #expect(firstConnect.stdout == "one\n")
        #expect(!second.report.hostKeyCreated && first.report.hostKeyCreated)
        #expect(secondConnect.status == 0 && secondConnect.stdout == "two\n")
        let printed = try await SSHKeygen.fingerprintLine(of: second.hostKeyPath)
        #expect(second.report.lines.contains("Host key: \(printed)"))
        // The known_hosts line the client wrote is the server's public key.
        let knownHosts = try String(contentsOfFile: folder.path("known_hosts"), encoding: .utf8)
        let publicKey = second.report.hostKey.publicKeyLine.split(separator: " ").prefix(2).joined(separator: " ")
        #expect(knownHosts.contains(publicKey))
    }
}
