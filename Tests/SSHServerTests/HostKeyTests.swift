import Foundation
import TestSupport
import Testing

@testable import SSHServer

@Suite struct HostKeyTests {
    @Test func aNewKeyIsAnOpenSSHFileOnlyItsOwnerCanRead() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("keys/host_ed25519")

        let (key, created) = try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: path), comment: "test host")

        #expect(created)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // ssh-keygen reads the file and derives the same public key.
        let derived = try await SSHKeygen.publicKey(ofPrivateKey: path)
        #expect(derived == key.publicKeyLine)
    }

    @Test func theFingerprintIsWhatSSHKeygenPrints() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("host_ed25519")
        let (key, _) = try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: path), comment: "tabshell host key")

        let printed = try await SSHKeygen.fingerprintLine(of: path)

        #expect(key.fingerprintLine == printed)
        #expect(printed.hasPrefix("256 SHA256:") && printed.hasSuffix(" tabshell host key (ED25519)"))
    }

    @Test func theSameKeyIsReadOnEveryStart() throws {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: folder.path("host_ed25519"))
        let (first, _) = try SSHHostKey.loadOrCreate(at: url)

        let (second, created) = try SSHHostKey.loadOrCreate(at: url)

        #expect(!created)
        #expect(second.fingerprint == first.fingerprint)
        #expect(second.publicKeyLine == first.publicKeyLine)
    }

    @Test func aKeyMadeBySSHKeygenIsRead() async throws {
        let folder = try TemporaryFolder()
        let made = try await SSHKeygen.makeKey("ed25519", comment: "made by keygen", in: folder, name: "host")

        let (key, created) = try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: made.privateKeyPath))

        #expect(!created)
        #expect(key.publicKeyLine == made.publicLine)
        #expect(key.fingerprintLine == (try await SSHKeygen.fingerprintLine(of: made.privateKeyPath)))
    }

    @Test func aKeyOthersCanReadIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("host_ed25519")
        _ = try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: path))
        chmod(path, 0o644)

        #expect(throws: SSHServerError.hostKeyExposed(path: path, mode: "644")) {
            try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: path))
        }
    }

    @Test func anEncryptedOrNonEd25519KeyIsRefusedWithTheReason() async throws {
        let folder = try TemporaryFolder()
        let ecdsa = try await SSHKeygen.makeKey("ecdsa", comment: "x", in: folder, name: "ecdsa")
        let encrypted = folder.path("encrypted")
        let made = try await Subprocess.run(SSHKeygen.path, ["-q", "-t", "ed25519", "-N", "secret", "-f", encrypted])
        #expect(made.status == 0)

        #expect(throws: SSHServerError.hostKeyInvalid(path: ecdsa.privateKeyPath, reason: "it is a ecdsa-sha2-nistp256 key")) {
            try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: ecdsa.privateKeyPath))
        }
        #expect(throws: SSHServerError.hostKeyInvalid(path: encrypted, reason: "it is encrypted with a passphrase (aes256-ctr)")) {
            try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: encrypted))
        }
    }

    @Test func aDamagedKeyFileIsRefusedNotReplaced() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("host_ed25519")
        _ = FileManager.default.createFile(atPath: path, contents: Data("not a key\n".utf8), attributes: [.posixPermissions: 0o600])

        #expect(throws: SSHServerError.hostKeyInvalid(path: path, reason: "no -----BEGIN OPENSSH PRIVATE KEY----- block")) {
            try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: path))
        }
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "not a key\n")
    }

    /// A named pipe (mode 0600) where the key should be is refused: reading it would wait for a
    /// writer forever, and the server would never start.
    @Test func aNamedPipeWhereTheKeyShouldBeIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("host_ed25519")
        #expect(mkfifo(path, 0o600) == 0)

        #expect(throws: SSHServerError.hostKeyInvalid(path: path, reason: "it is not a regular file")) {
            try SSHHostKey.loadOrCreate(at: URL(fileURLWithPath: path))
        }
    }
}
