import Foundation
import TestSupport

/// A client key made by the real ssh-keygen.
struct ClientKey: Sendable {
    let privateKeyPath: String
    /// The .pub line: `type base64 comment`.
    let publicLine: String
    /// `SHA256:…` as ssh-keygen -l prints it.
    let fingerprint: String
}

enum SSHKeygen {
    static let path = "/usr/bin/ssh-keygen"

    /// `ssh-keygen -t type -C comment -N ""` in `folder`.
    static func makeKey(_ type: String, bits: Int? = nil, comment: String, in folder: TemporaryFolder, name: String) async throws -> ClientKey {
        let keyPath = folder.path(name)
        var arguments = ["-q", "-t", type, "-N", "", "-C", comment, "-f", keyPath]
        if let bits { arguments += ["-b", "\(bits)"] }
        let made = try await Subprocess.run(path, arguments)
        guard made.status == 0 else { throw KeygenFailed(output: made.stderr) }
        let publicLine = try String(contentsOfFile: keyPath + ".pub", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = try await fingerprintLine(of: keyPath + ".pub")
        let fingerprint = listed.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        return ClientKey(privateKeyPath: keyPath, publicLine: publicLine, fingerprint: fingerprint)
    }

    /// What `ssh-keygen -l -f path` prints, without the newline.
    static func fingerprintLine(of path: String) async throws -> String {
        let listed = try await Subprocess.run(self.path, ["-l", "-f", path])
        guard listed.status == 0 else { throw KeygenFailed(output: listed.stderr) }
        return listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What `ssh-keygen -y -f path` prints: the public key derived from a private key file.
    static func publicKey(ofPrivateKey path: String) async throws -> String {
        let derived = try await Subprocess.run(self.path, ["-y", "-f", path])
        guard derived.status == 0 else { throw KeygenFailed(output: derived.stderr) }
        return derived.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct KeygenFailed: Error {
        let output: String
    }
}
