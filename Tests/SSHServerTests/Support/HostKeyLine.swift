import NIOSSH

@testable import SSHServer

extension SSHHostKey {
    /// The public key as in `known_hosts` and `.pub` files: `ssh-ed25519 AAAA… comment`.
    var publicKeyLine: String {
        let base = String(openSSHPublicKey: privateKey.publicKey)
        return comment.isEmpty ? base : base + " " + comment
    }
}
