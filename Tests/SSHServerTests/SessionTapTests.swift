import Foundation
import TestSupport
import Testing

@testable import SSHServer

/// `SSHSessionCommand.outputTap`: a terminal session's tap sees every byte the
/// child wrote, each size its terminal was set to, and the end once; a session without a
/// terminal is never tapped.
@Suite(.tags(.e2e)) struct SessionTapTests {
    final class RecordingTap: SSHSessionTap, @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var sizes: [String] = []
        private var ends = 0

        func childWrote(_ chunk: UnsafeRawBufferPointer) { lock.withLock { bytes += chunk } }
        func terminalResized(columns: Int, rows: Int) { lock.withLock { sizes.append("\(columns)x\(rows)") } }
        func sessionEnded() { lock.withLock { ends += 1 } }

        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
        var resizes: [String] { lock.withLock { sizes } }
        var endCount: Int { lock.withLock { ends } }
    }

    static func server(in folder: TemporaryFolder, tap: RecordingTap) async throws -> TestServer {
        try await TestServer.start(in: folder, authorization: .open) { request in
            var command = SSHSessionCommand(
                executablePath: "/bin/sh", arguments: ["-c", request.command ?? "exit 9"], environment: ["PATH": "/usr/bin:/bin"])
            command.outputTap = tap
            return .run(command)
        }
    }

    @Test func theTapSeesTheOutputTheResizesAndTheEndOnce() async throws {
        let folder = try TemporaryFolder()
        let tap = RecordingTap()
        let server = try await Self.server(in: folder, tap: tap)
        let terminal = try TerminalSession(
            server.client(key: nil).sshArguments(
                ["-tt"], command: "trap 'echo \"size $(stty size)\"; exit 0' WINCH; printf 'caf\\303\\251 ready\\n'; while :; do sleep 0.05; done"),
            columns: 80, rows: 24)
        try await terminal.waitFor("ready")
        terminal.resize(columns: 132, rows: 43)
        try await terminal.waitFor("size 43 132")
        _ = try await terminal.waitForExit()
        try await waitUntil { tap.endCount == 1 }
        await server.server.stop()

        #expect(tap.text.contains("café ready\r\n") && tap.text.contains("size 43 132"))
        #expect(tap.resizes.last == "132x43", "\(tap.resizes)")
        #expect(tap.endCount == 1)
    }

    @Test func aSessionWithoutATerminalIsNotTapped() async throws {
        let folder = try TemporaryFolder()
        let tap = RecordingTap()
        let server = try await Self.server(in: folder, tap: tap)
        let result = try await server.client(key: nil).run("echo hidden")
        await server.server.stop()
        #expect(result.stdout == "hidden\n")
        #expect(tap.text.isEmpty && tap.resizes.isEmpty && tap.endCount == 0)
    }
}
