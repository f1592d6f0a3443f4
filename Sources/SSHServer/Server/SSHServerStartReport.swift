/// What start() found, for the person starting the server.
public struct SSHServerStartReport: Sendable {
    public let host: String
    public let port: Int
    public let hostKey: SSHHostKey
    /// True when the host key was created by this start.
    public let hostKeyCreated: Bool
    /// nil unless the policy is an authorized keys file.
    public let authorizedKeys: AuthorizedKeysReport?

    /// Set on the log events start() writes whose text is also in ``lines`` (listening, each
    /// refused authorized_keys line): the log file keeps them, and a console that prints the
    /// report skips them, so nobody reads a refused line twice.
    public static let metadataKey = "inStartReport"

    /// Lines to print at start: address, host key fingerprint as `ssh-keygen -l` prints it,
    /// authorized keys summary and each refused line.
    public var lines: [String] {
        ["Listening on \(host):\(port)", "Host key\(hostKeyCreated ? " (new)" : ""): \(hostKey.fingerprintLine)"]
            + (authorizedKeys?.summaryLines ?? [])
    }
}
