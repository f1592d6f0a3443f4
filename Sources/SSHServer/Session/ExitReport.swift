import Glibc
import NIOSSH

/// How a child's end is told to the client: exit-status, or exit-signal for the signals
/// RFC 4254 §6.10 names (the client then exits 255, as with sshd).
enum ExitReport {
    private static let signalNames: [Int32: String] = [
        SIGABRT: "ABRT", SIGALRM: "ALRM", SIGFPE: "FPE", SIGHUP: "HUP", SIGILL: "ILL", SIGINT: "INT",
        SIGKILL: "KILL", SIGPIPE: "PIPE", SIGQUIT: "QUIT", SIGSEGV: "SEGV", SIGTERM: "TERM",
        SIGUSR1: "USR1", SIGUSR2: "USR2",
    ]

    /// The channel event to send: an `ExitStatus` or an `ExitSignal`.
    static func event(for termination: SSHSessionEnd.Termination) -> Any {
        switch termination {
        case .exited(let status):
            return SSHChannelRequestEvent.ExitStatus(exitStatus: status)
        case .killed(let signal):
            guard let name = signalNames[signal] else { return SSHChannelRequestEvent.ExitStatus(exitStatus: 128 + Int(signal)) }
            return SSHChannelRequestEvent.ExitSignal(signalName: name, errorMessage: "", language: "", dumpedCore: false)
        }
    }
}
