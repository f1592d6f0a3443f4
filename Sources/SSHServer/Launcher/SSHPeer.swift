/// Who is connected: decided at authentication, the same for every session of the connection.
public struct SSHPeer: Sendable, Equatable {
    /// The person's name: the authorized key's comment, or under the open policy the login
    /// name the client gave (unverified).
    public let name: String
    /// `SHA256:…` of the key that authenticated, or nil when no key was checked (open policy).
    public let keyFingerprint: String?
    /// The login name the client asked for (`ssh NAME@host`); unverified.
    public let loginName: String
    /// `address:port` of the client.
    public let remoteAddress: String
    /// Unique for the life of the server; every session of one connection shares it.
    public let connectionID: Int
    /// The client's address as the per-source limits count it: an IPv4 address, an IPv6 /64.
    public let source: String

    public init(
        name: String, keyFingerprint: String?, loginName: String, remoteAddress: String, connectionID: Int, source: String = ""
    ) {
        self.name = name
        self.keyFingerprint = keyFingerprint
        self.loginName = loginName
        self.remoteAddress = remoteAddress
        self.connectionID = connectionID
        self.source = source
    }
}
