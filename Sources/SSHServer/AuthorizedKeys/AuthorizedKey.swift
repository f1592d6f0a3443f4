import NIOSSH

/// One accepted line of an authorized_keys file: a key and the person it belongs to.
public struct AuthorizedKey: Sendable, Equatable {
    /// The person's name: the line's comment.
    public let name: String
    /// The line number in the file (1-based).
    public let line: Int
    let publicKey: NIOSSHPublicKey
}
