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
