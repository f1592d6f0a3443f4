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
    /// Called exactly once (on no particular thread): when the child has ended and been reaped,
    /// or when it never started (the client left while the launcher decided, or the spawn
    /// failed), so whatever the launcher prepared for the session is released on every path.
    public var onExit: (@Sendable (SSHSessionEnd) -> Void)?
    /// The child's data limit in bytes (RLIMIT_DATA, set before exec): a child that goes over it
    /// fails its allocations and ends alone. Nil: the server's own limit.
    public var memoryLimit: UInt64?
    /// A line for the client when the child has ended this way (nil: none), written after the
    /// child's output, e.g. why a session that crashed ended.
    public var sentenceAtEnd: (@Sendable (SSHSessionEnd) -> String?)?
    /// Told what a terminal session's child draws and each resize (nil: nobody); not used for
    /// sessions without a terminal.
    public var outputTap: (any SSHSessionTap)?

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
