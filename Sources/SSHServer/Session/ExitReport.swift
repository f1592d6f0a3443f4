import NIOSSH

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child's end is told to the client: exit-status, or exit-signal for the signals
/// RFC 4254 §6.10 names (the client then exits 255, as with sshd).
enum ExitReport {
    private static let signalNames: [Int32: String] = [
        SIGABRT: "ABRT", SIGALRM: "ALRM", SIGFPE: "FPE", SIGHUP: "HUP", SIGILL: "ILL", SIGINT: "INT",
        SIGKILL: "KILL", SIGPIPE: "PIPE", SIGQUIT: "QUIT", SIGSEGV: "SEGV", SIGTERM: "TERM",
        SIGUSR1: "USR1", SIGUSR2: "USR2",
    ]

    enum Message {
        case status(SSHChannelRequestEvent.ExitStatus)
        case signal(SSHChannelRequestEvent.ExitSignal)
    }

    static func message(for termination: SSHSessionEnd.Termination) -> Message {
        switch termination {
        case .exited(let status):
            return .status(.init(exitStatus: status))
        case .killed(let signal):
            guard let name = signalNames[signal] else {
                return .status(.init(exitStatus: 128 + Int(signal)))
            }
            return .signal(.init(signalName: name, errorMessage: "", language: "", dumpedCore: false))
        }
    }
}
