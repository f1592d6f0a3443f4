import Crypto
import Foundation

/// The OpenSSH private key format (PROTOCOL.key in OpenSSH), for one unencrypted Ed25519 key:
///
///     "openssh-key-v1\0" string cipher("none") string kdf("none") string kdfoptions("")
///     uint32 1  string publickey  string private-section
///     private-section = uint32 check, uint32 check, string "ssh-ed25519", string pk(32),
///                       string sk(seed 32 ++ pk 32), string comment, padding 1 2 3 … to 8 bytes
enum OpenSSHPrivateKeyFormat {
    static let beginMarker = "-----BEGIN OPENSSH PRIVATE KEY-----"
    static let endMarker = "-----END OPENSSH PRIVATE KEY-----"
    private static let magic = Array("openssh-key-v1".utf8) + [0]
    private static let keyType = "ssh-ed25519"

    struct DecodeError: Error {
        let reason: String
    }

    static func encode(_ key: Curve25519.Signing.PrivateKey, comment: String, checkInt: UInt32) -> String {
        let publicKey = Array(key.publicKey.rawRepresentation)
        var publicBlob = SSHWireWriter()
        publicBlob.writeString(keyType)
        publicBlob.writeString(publicKey)

        var secret = SSHWireWriter()
        secret.writeUInt32(checkInt)
        secret.writeUInt32(checkInt)
        secret.writeString(keyType)
        secret.writeString(publicKey)
        secret.writeString(Array(key.rawRepresentation) + publicKey)
        secret.writeString(comment)
        var padding: UInt8 = 1
        while secret.bytes.count % 8 != 0 {
            secret.writeRaw([padding])
            padding += 1
        }

        var body = SSHWireWriter()
        body.writeRaw(magic)
        body.writeString("none")
        body.writeString("none")
        body.writeString([UInt8]())
        body.writeUInt32(1)
        body.writeString(publicBlob.bytes)
        body.writeString(secret.bytes)

        // The base64 in lines of 70, as ssh-keygen writes it.
        let base64 = Array(Data(body.bytes).base64EncodedString())
        let lines = stride(from: 0, to: base64.count, by: 70).map { String(base64[$0..<min($0 + 70, base64.count)]) }
        return ([beginMarker] + lines + [endMarker]).joined(separator: "\n") + "\n"
    }

    static func decode(_ text: String) throws(DecodeError) -> (key: Curve25519.Signing.PrivateKey, comment: String) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(of: beginMarker),
            let end = lines.firstIndex(of: endMarker), begin < end
        else {
            throw DecodeError(reason: "no \(beginMarker) block")
        }
        guard let data = Data(base64Encoded: lines[(begin + 1)..<end].joined()) else {
            throw DecodeError(reason: "the key block is not valid base64")
        }
        var reader = SSHWireReader(Array(data))
        guard reader.readBytes(count: magic.count) == magic else {
            throw DecodeError(reason: "it does not start with openssh-key-v1")
        }
        guard let cipher = reader.readUTF8String(), let kdf = reader.readUTF8String(),
            reader.readString() != nil, let count = reader.readUInt32()
        else {
            throw DecodeError(reason: "the header is truncated")
        }
        guard cipher == "none", kdf == "none" else {
            throw DecodeError(reason: "it is encrypted with a passphrase (\(cipher))")
        }
        guard count == 1 else {
            throw DecodeError(reason: "it holds \(count) keys instead of one")
        }
        guard reader.readString() != nil, let secret = reader.readString() else {
            throw DecodeError(reason: "the key sections are truncated")
        }

        var section = SSHWireReader(secret)
        guard let check1 = section.readUInt32(), let check2 = section.readUInt32(), check1 == check2 else {
            throw DecodeError(reason: "its check numbers differ")
        }
        guard let type = section.readUTF8String() else {
            throw DecodeError(reason: "the private section is truncated")
        }
        guard type == keyType else {
            throw DecodeError(reason: "it is a \(type) key")
        }
        guard let publicKey = section.readString(), publicKey.count == 32,
            let secretKey = section.readString(), secretKey.count == 64,
            let comment = section.readUTF8String()
        else {
            throw DecodeError(reason: "the Ed25519 key material is malformed")
        }
        let key: Curve25519.Signing.PrivateKey
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: secretKey.prefix(32))
        } catch {
            throw DecodeError(reason: "the Ed25519 seed is unusable")
        }
        guard Array(key.publicKey.rawRepresentation) == publicKey, Array(secretKey.suffix(32)) == publicKey else {
            throw DecodeError(reason: "its public half does not match its private half")
        }
        return (key, comment)
    }
}
