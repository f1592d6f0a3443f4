import Foundation

/// Command lines for the real OpenSSH client against a test server: no user config, no agent,
/// only the given key, a private known_hosts, never a prompt.
struct OpenSSH: Sendable {
    static let ssh = "/usr/bin/ssh"
    static let sftp = "/usr/bin/sftp"

    let port: Int
    let knownHosts: String
    var key: ClientKey?
    var login = "tester"
    var strictHostKeyChecking = "accept-new"
    /// Names the host in known_hosts, so that a restarted server on another port is the same host.
    var hostAlias = "tabshell-test"
    /// ssh keeps the first value it reads for an option, so this is how to change it.
    var logLevel = "ERROR"
    /// An ssh-agent socket to use (and offer to forward), or none.
    var agentSocket: String?

    /// Options shared by ssh and sftp.
    var options: [String] {
        var options = [
            "-F", "/dev/null",
            "-o", "UserKnownHostsFile=\(knownHosts)",
            "-o", "GlobalKnownHostsFile=/dev/null",
            "-o", "StrictHostKeyChecking=\(strictHostKeyChecking)",
            "-o", "HostKeyAlias=\(hostAlias)",
            "-o", "BatchMode=yes",
            "-o", "IdentitiesOnly=yes",
            "-o", "IdentityAgent=\(agentSocket ?? "none")",
            "-o", "LogLevel=\(logLevel)",
            "-o", "ConnectTimeout=10",
            "-o", "User=\(login)",
        ]
        if let key {
            options += ["-o", "IdentityFile=\(key.privateKeyPath)"]
        } else {
            options += ["-o", "PubkeyAuthentication=no"]
        }
        return options
    }

    /// `ssh [extra] -p port 127.0.0.1 [command]`.
    func sshArguments(_ extra: [String] = [], command: String? = nil) -> [String] {
        options + extra + ["-p", "\(port)", "127.0.0.1"] + (command.map { [$0] } ?? [])
    }

    func run(_ command: String?, extra: [String] = [], stdin: String? = nil, environment: [String: String]? = nil)
        async throws -> ProgramResult
    {
        try await Subprocess.run(Self.ssh, sshArguments(extra, command: command), stdin: stdin, environment: environment)
    }

    func start(_ command: String?, extra: [String] = []) throws -> RunningProgram {
        try Subprocess.start(Self.ssh, sshArguments(extra, command: command))
    }
}
