/// The launcher's answer.
public enum SSHSessionDecision: Sendable {
    /// Run this in the session.
    case run(SSHSessionCommand)
    /// Tell the client this sentence (one line, on stderr) and end the session with `exitStatus`.
    case refuse(String, exitStatus: Int = 1)
}

/// Decides what a session runs. Called once per shell or exec request, off the event loop.
public typealias SSHSessionLauncher = @Sendable (SSHSessionRequest) async -> SSHSessionDecision
