import Foundation
import Logging
import TestSupport

@testable import SSHServer

/// A server on a random loopback port, with its host key and logs in a temporary folder.
final class TestServer: Sendable {
    let folder: TemporaryFolder
    let server: SSHServer
    let report: SSHServerStartReport
    let logs: LogCapture

    var port: Int { report.port }
    var hostKeyPath: String { server.configuration.hostKeyPath }

    /// A client for this server with its own known_hosts in the folder.
    func client(key: ClientKey?) -> OpenSSH {
        OpenSSH(port: port, knownHosts: folder.path("known_hosts"), key: key)
    }

    static func start(
        in folder: TemporaryFolder, authorization: SSHAuthorization,
        launcher: @escaping SSHSessionLauncher = TestLaunchers.shell,
        limits: (inout SSHServerLimits) -> Void = { _ in },
        checkInterval: Duration = .milliseconds(100),
        configure: (inout SSHServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let logs = LogCapture()
        var configuration = SSHServerConfiguration(
            hostKeyPath: folder.path("host_ed25519"), authorization: authorization, logger: logs.logger, launcher: launcher)
        configuration.port = 0
        configuration.authorizedKeysCheckInterval = checkInterval
        configuration.limits.hangUpGrace = .seconds(3)
        limits(&configuration.limits)
        configure(&configuration)
        let server = SSHServer(configuration: configuration)
        let report = try await server.start()
        return TestServer(folder: folder, server: server, report: report, logs: logs)
    }

    private init(folder: TemporaryFolder, server: SSHServer, report: SSHServerStartReport, logs: LogCapture) {
        self.folder = folder
        self.server = server
        self.report = report
        self.logs = logs
    }
}

/// Launchers the tests use.
enum TestLaunchers {
    /// Runs the exec command with /bin/sh -c (a shell request runs `echo shell`), with the
    /// peer's name and fingerprint in PEER_NAME / PEER_KEY; `forbidden` is refused.
    static let shell: SSHSessionLauncher = { request in
        if request.command == "forbidden" {
            return .refuse("`forbidden` is not an allowed command.", exitStatus: 2)
        }
        var environment = request.terminalEnvironment
        environment["PATH"] = "/usr/bin:/bin"
        environment["PEER_NAME"] = request.peer.name
        environment["PEER_KEY"] = request.peer.keyFingerprint ?? "none"
        environment["PEER_LOGIN"] = request.peer.loginName
        return .run(
            SSHSessionCommand(
                executablePath: "/bin/sh", arguments: ["-c", request.command ?? "echo shell"], environment: environment))
    }
}

/// An authorized_keys file in `folder` with these lines.
func writeAuthorizedKeys(_ lines: [String], in folder: TemporaryFolder) throws -> String {
    let path = folder.path("authorized_keys")
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
