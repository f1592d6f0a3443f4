import Crypto
import Foundation
import NIOSSH

/// The server's Ed25519 host key, kept in OpenSSH's private key format so that `ssh-keygen`
/// can read it (`ssh-keygen -l -f` prints the same fingerprint as ``fingerprintLine``).
public struct SSHHostKey: Sendable {
    let privateKey: NIOSSHPrivateKey
    /// The comment stored in the key file.
    public let comment: String
    /// The SHA256 fingerprint of the public key.
    public let fingerprint: SSHKeyFingerprint

    /// The line `ssh-keygen -l -f <key file>` prints, e.g. `256 SHA256:… tabshell host key (ED25519)`.
    public var fingerprintLine: String { fingerprint.keygenLine(comment: comment) }

    init(_ key: Curve25519.Signing.PrivateKey, comment: String) {
        self.privateKey = NIOSSHPrivateKey(ed25519Key: key)
        self.comment = comment
        self.fingerprint = SSHKeyFingerprint(privateKey.publicKey)
    }

    /// Reads the key at `url`, or creates one there (mode 0600, parent folder 0700 if missing)
    /// when there is no file. A key file others can read is refused, as sshd does.
    public static func loadOrCreate(at url: URL, comment: String = "tabshell host key") throws(SSHServerError)
        -> (key: SSHHostKey, created: Bool)
    {
        if let existing = try load(at: url) {
            return (existing, false)
        }
        let key = Curve25519.Signing.PrivateKey()
        let text = OpenSSHPrivateKeyFormat.encode(key, comment: comment, checkInt: UInt32.random(in: .min ... .max))
        let created = try writeNew(Array(text.utf8), to: url.path)
        if !created, let winner = try load(at: url) {
            // Another process created it between our look and our link: use theirs.
            return (winner, false)
        }
        return (SSHHostKey(key, comment: comment), true)
    }

    /// The key at `url`, or nil when there is no file.
    static func load(at url: URL) throws(SSHServerError) -> SSHHostKey? {
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .hostKeyUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if info.st_mode & 0o077 != 0 {
            throw .hostKeyExposed(path: path, mode: String(info.st_mode & 0o777, radix: 8))
        }
        // A named pipe would hold the read below until something writes to it.
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .hostKeyInvalid(path: path, reason: "it is not a regular file")
        }
        guard info.st_size < 65_536 else {
            throw .hostKeyInvalid(path: path, reason: "it is \(info.st_size) bytes long")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .hostKeyUnreadable(path: path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .hostKeyInvalid(path: path, reason: "it is not text")
        }
        do {
            let (key, comment) = try OpenSSHPrivateKeyFormat.decode(text)
            return SSHHostKey(key, comment: comment)
        } catch {
            throw .hostKeyInvalid(path: path, reason: error.reason)
        }
    }

    /// Writes to a private temporary file, then links it into place, so the key file is never
    /// seen half-written and an existing one is never replaced. False when `path` appeared meanwhile.
    private static func writeNew(_ bytes: [UInt8], to path: String) throws(SSHServerError) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .hostKeyNotWritten(path: path, reason: error.localizedDescription)
            }
        }
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .hostKeyNotWritten(path: path, reason: String(cString: strerror(errno)))
        }
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        let writeError = errno
        close(fd)
        guard written == bytes.count, synced == 0 else {
            throw .hostKeyNotWritten(path: path, reason: String(cString: strerror(writeError)))
        }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw .hostKeyNotWritten(path: path, reason: String(cString: strerror(errno)))
        }
        return true
    }
}
