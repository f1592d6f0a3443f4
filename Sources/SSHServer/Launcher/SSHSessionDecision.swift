/// The launcher's answer.
public enum SSHSessionDecision: Sendable {
    /// Run this in the session.
    case run(SSHSessionCommand)
    /// Tell the client this sentence (one line, on stderr) and end the session with `exitStatus`.
    case refuse(String, exitStatus: Int = 1)
    /// The client named a secret that opens nothing (a watch code no presentation it may watch
    /// has): refused as ``refuse(_:exitStatus:)`` with status 1, and counted against the
    /// connection and its address (``SSHServerLimits/maxWrongGuesses``,
    /// ``SSHServerLimits/perSourceWrongGuesses``). Give every wrong secret the same sentence, so
    /// the answer tells nothing of which secrets exist.
    case wrongGuess(String)
}

/// Decides what a session runs. Called once per shell or exec request, off the event loop.
public typealias SSHSessionLauncher = @Sendable (SSHSessionRequest) async -> SSHSessionDecision
