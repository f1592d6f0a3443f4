/// What a client asked to run, handed to the launcher to decide.
public struct SSHSessionRequest: Sendable {
    public let peer: SSHPeer
    /// nil when the client asked for no terminal (`ssh -T`, or a command without `-t`).
    public let pseudoTerminal: SSHPseudoTerminal?
    /// The client's LANG and LC_* variables; nothing else from its environment is kept.
    public let localeEnvironment: [String: String]
    /// The command line of an `exec` request (`ssh host some command`), nil for a shell.
    public let command: String?

    /// For the app's own tests of its launcher; the server makes these from client requests.
    public init(peer: SSHPeer, pseudoTerminal: SSHPseudoTerminal?, localeEnvironment: [String: String] = [:], command: String?) {
        self.peer = peer
        self.pseudoTerminal = pseudoTerminal
        self.localeEnvironment = localeEnvironment
        self.command = command
    }

    /// TERM (when there is a terminal) and the locale variables: what a child should inherit.
    public var terminalEnvironment: [String: String] {
        var environment = localeEnvironment
        if let term = pseudoTerminal?.term, !term.isEmpty {
            environment["TERM"] = term
        }
        return environment
    }

    /// ``command`` split into words the way a POSIX shell would (quotes and backslashes, no
    /// expansion); nil when there is no command or a quote is left open.
    public var commandWords: [String]? {
        command.flatMap(ShellWords.split)
    }
}
