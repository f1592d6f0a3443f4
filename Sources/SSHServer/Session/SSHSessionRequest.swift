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

    public init(name: String, keyFingerprint: String?, loginName: String, remoteAddress: String, connectionID: Int) {
        self.name = name
        self.keyFingerprint = keyFingerprint
        self.loginName = loginName
        self.remoteAddress = remoteAddress
        self.connectionID = connectionID
    }
}

/// The terminal a client asked for (`pty-req`).
public struct SSHPseudoTerminal: Sendable, Equatable {
    /// The client's TERM, e.g. `xterm-256color`.
    public var term: String
    public var columns: Int
    public var rows: Int

    public init(term: String, columns: Int, rows: Int) {
        self.term = term
        self.columns = columns
        self.rows = rows
    }
}

/// What a client asked to run, handed to the launcher to decide.
public struct SSHSessionRequest: Sendable {
    public let peer: SSHPeer
    /// nil when the client asked for no terminal (`ssh -T`, or a command without `-t`).
    public let pseudoTerminal: SSHPseudoTerminal?
    /// The client's LANG and LC_* variables; nothing else from its environment is kept.
    public let localeEnvironment: [String: String]
    /// The command line of an `exec` request (`ssh host some command`), nil for a shell.
    public let command: String?
    /// How many other sessions of the same person (same ``SSHPeer/name``) are running now.
    public let otherSessionsOfSamePerson: Int

    /// For the app's own tests of its launcher; the server makes these from client requests.
    public init(
        peer: SSHPeer, pseudoTerminal: SSHPseudoTerminal?, localeEnvironment: [String: String] = [:],
        command: String?, otherSessionsOfSamePerson: Int = 0
    ) {
        self.peer = peer
        self.pseudoTerminal = pseudoTerminal
        self.localeEnvironment = localeEnvironment
        self.command = command
        self.otherSessionsOfSamePerson = otherSessionsOfSamePerson
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

/// The launcher's answer.
public enum SSHSessionDecision: Sendable {
    /// Run this in the session.
    case run(SSHSessionCommand)
    /// Tell the client this sentence (one line, on stderr) and end the session with `exitStatus`.
    case refuse(String, exitStatus: Int = 1)
}

/// A program to run for a session: in its own process, on its own pseudo-terminal when the
/// client asked for one, with pipes otherwise.
public struct SSHSessionCommand: Sendable {
    /// Absolute path; it is exec'd directly, no PATH search and no shell.
    public var executablePath: String
    /// argv[1...]; argv[0] is `executablePath`.
    public var arguments: [String]
    /// The whole environment of the child: nothing is inherited from the server.
    public var environment: [String: String]
    public var workingDirectory: String?
    /// Called once the child has ended and been reaped (on no particular thread).
    public var onExit: (@Sendable (SSHSessionEnd) -> Void)?

    public init(
        executablePath: String, arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, onExit: (@Sendable (SSHSessionEnd) -> Void)? = nil
    ) {
        self.executablePath = executablePath
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.onExit = onExit
    }
}

/// How a session's child ended.
public struct SSHSessionEnd: Sendable, Equatable {
    public enum Termination: Sendable, Equatable {
        case exited(status: Int)
        case killed(signal: Int32)
    }

    public let termination: Termination
    /// True when the client had gone (or the server was stopping) and the child was hung up.
    public let wasHungUp: Bool

    public init(termination: Termination, wasHungUp: Bool) {
        self.termination = termination
        self.wasHungUp = wasHungUp
    }
}

/// Decides what a session runs. Called once per shell or exec request, off the event loop.
public typealias SSHSessionLauncher = @Sendable (SSHSessionRequest) async -> SSHSessionDecision
