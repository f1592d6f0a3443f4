import Foundation
import TestSupport
import Testing

@testable import SSHServer

/// Bytes a client chooses (its login name, its command) never reach the log or its own
/// terminal raw, and a word a C string cannot carry is refused before anything runs.
@Suite(.tags(.e2e)) struct HostileClientTests {
    /// ESC, BEL, CSI as one C1 character, a right-to-left override, an isolate, a line separator, NUL.
    static let hostile = "a\u{1B}]0;x\u{07}b\u{9B}31m\u{202E}c\u{2066}d\u{2028}e\u{0}f\nG"

    /// True when `text` holds something a terminal acts on or that reorders or breaks a line.
    static func holdsUnsafe(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            let value = scalar.value
            return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) || value == 0x2028 || value == 0x2029 || value == 0x200E
                || value == 0x200F || value == 0x061C
        }
    }

    @Test func clientTextKeepsOnlyWhatPrints() {
        let printable = ClientText.printable(Self.hostile)
        #expect(printable == "a?]0;x?b?31m?c?d?e?f?G")
        #expect(!Self.holdsUnsafe(printable))
        #expect(ClientText.printable("plain ünïcödé 名前 🙂") == "plain ünïcödé 名前 🙂", "printable text is kept as it is")
        #expect(ClientText.printable(String(repeating: "x", count: 70), limit: 64) == String(repeating: "x", count: 64) + "…")
        #expect(ClientText.holdsNUL("a\u{0}/../b") && !ClientText.holdsNUL("a/../b"))
    }

    @Test func aLocaleValueHoldingANULOrAControlIsNotPassedOn() {
        #expect(ClientEnvironment.accepts(name: "LANG", value: "C.UTF-8"))
        for value in ["C\u{0}.UTF-8", "C.UTF-8\u{1B}[2J", "C\u{9B}", "\u{202E}C.UTF-8"] {
            #expect(!ClientEnvironment.accepts(name: "LANG", value: value), "\(value.debugDescription)")
        }
    }

    @Test func aChildArgumentHoldingANULIsNeverStarted() {
        let command = SSHSessionCommand(executablePath: "/bin/echo", arguments: ["a\u{0}/../b"])
        #expect(throws: ChildSpawner.SpawnError.self) { _ = try ChildSpawner.spawn(command, terminal: nil) }
        let environment = SSHSessionCommand(executablePath: "/bin/echo", environment: ["LANG": "C\u{0}x"])
        #expect(throws: ChildSpawner.SpawnError.self) { _ = try ChildSpawner.spawn(environment, terminal: nil) }
    }

    /// The real OpenSSH client: it refuses control characters in a login name but sends C1 and
    /// bidi characters there, and anything in a command. The launcher quotes the command back
    /// in its refusal, as tabshell's does.
    @Test func aHostileLoginNameAndCommandReachTheLogAndTheClientPrintable() async throws {
        let server = try await TestServer.start(in: try TemporaryFolder(), authorization: .open) { request in
            .refuse("`\(request.command ?? "")` is not an allowed command.", exitStatus: 2)
        }
        var client = server.client(key: nil)
        client.login = "eve\u{9B}31m\u{202E}nimda"

        let result = try await client.run("ls \u{1B}]0;owned\u{07} \u{9B}2J \u{202E}txt.exe")
        await server.server.stop()

        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("tabshell: `ls ?]0;owned? ?2J ?txt.exe` is not an allowed command."), "\(result.stderr)")
        #expect(!Self.holdsUnsafe(result.stderr.dropLast().description), "the refusal said back: \(result.stderr.debugDescription)")
        #expect(server.logs.contains("authenticated", "login=eve?31m?nimda"))
        #expect(server.logs.contains("refused: launcher", "command=ls ?]0;owned? ?2J ?txt.exe"))
        let unsafe = server.logs.all.filter(Self.holdsUnsafe)
        #expect(unsafe.isEmpty, "logged raw: \(unsafe.map(\.debugDescription))")
    }

    /// OpenSSH cannot send a NUL (its command is a C string), so a swift-nio-ssh client sends the
    /// exec request over TCP as a hostile client would: `photos add a<NUL>/../b` would have been
    /// checked as one word and run as `a`. Refused before the launcher is asked; the ESC in the
    /// login name, which OpenSSH would not send, is logged printable.
    @Test func aNULInAnExecCommandIsRefusedWithASentence() async throws {
        let asked = LaunchCount()
        let server = try await TestServer.start(in: try TemporaryFolder(), authorization: .open) { request in
            asked.add()
            return await TestLaunchers.shell(request)
        }

        let result = try await RawExecClient.run(port: server.port, login: "eve\u{1B}[2J\u{9B}", command: "photos add a\u{0}/../b")
        await server.server.stop()

        #expect(result.exitStatus == 1)
        #expect(result.stderr == "tabshell: the command holds a NUL byte, which no program can be given; nothing was run.\n")
        #expect(asked.count == 0, "the launcher never saw it")
        #expect(server.logs.contains("refused: a NUL byte in the command", "command=photos add a?/../b"))
        #expect(server.logs.contains("authenticated", "login=eve?[2J?"))
        let unsafe = server.logs.all.filter(Self.holdsUnsafe)
        #expect(unsafe.isEmpty, "logged raw: \(unsafe.map(\.debugDescription))")
    }
}

/// How many times a launcher was asked.
final class LaunchCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
