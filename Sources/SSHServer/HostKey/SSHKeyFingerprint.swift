import Crypto
import Foundation
import NIOSSH

/// A public key's SHA256 fingerprint, spelled the way OpenSSH spells it (`SHA256:` and the
/// unpadded base64 of the digest of the key's wire encoding), plus what `ssh-keygen -l` prints
/// around it.
public struct SSHKeyFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// `SHA256:<base64 without padding>`.
    public let sha256: String
    /// The key size `ssh-keygen -l` shows: 256 for Ed25519, the curve size for ECDSA.
    public let bits: Int
    /// The type `ssh-keygen -l` shows in brackets: `ED25519`, `ECDSA`.
    public let typeLabel: String

    public var description: String { sha256 }

    /// The line `ssh-keygen -l -f` prints: `256 SHA256:… comment (ED25519)`.
    public func keygenLine(comment: String) -> String {
        let shown = comment.isEmpty ? "no comment" : comment
        return "\(bits) \(sha256) \(shown) (\(typeLabel))"
    }

    /// The fingerprint of a public key NIOSSH understands.
    init(_ key: NIOSSHPublicKey) {
        let line = String(openSSHPublicKey: key)
        let parts = line.split(separator: " ")
        let type = parts.first.map(String.init) ?? ""
        let blob = parts.count > 1 ? Data(base64Encoded: String(parts[1])) ?? Data() : Data()
        self.init(keyType: type, blob: Array(blob))
    }

    /// The fingerprint of a key given as its type name and wire encoding (works for types
    /// NIOSSH cannot use, such as RSA, so they can be named in reports).
    init(keyType: String, blob: [UInt8]) {
        self.sha256 = Self.sha256String(of: blob)
        (bits, typeLabel) = Self.sizesAndLabels[keyType] ?? (0, keyType.uppercased())
    }

    private static let sizesAndLabels: [String: (Int, String)] = [
        "ssh-ed25519": (256, "ED25519"), "ecdsa-sha2-nistp256": (256, "ECDSA"), "ecdsa-sha2-nistp384": (384, "ECDSA"),
        "ecdsa-sha2-nistp521": (521, "ECDSA"), "ssh-rsa": (0, "RSA"),
    ]

    static func sha256String(of blob: [UInt8]) -> String {
        let digest = Data(SHA256.hash(data: blob)).base64EncodedString()
        return "SHA256:" + digest.replacingOccurrences(of: "=", with: "")
    }
}
