/// A public key a client proved it holds.
public struct SSHOfferedKey: Sendable, Equatable {
    public let fingerprint: SSHKeyFingerprint
    /// `type base64`, as in authorized_keys.
    public let openSSHPublicKey: String
    /// The login name the client asked for (`ssh NAME@host`); unverified.
    public let loginName: String
}
