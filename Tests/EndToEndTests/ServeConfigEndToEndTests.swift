import Foundation
import TestSupport
import Testing

/// serve.toml on the real binary: `serve --config F --check` says every problem by line and
/// starts nothing; the command line wins over the file; a SIGHUP with a broken file keeps the
/// running configuration, says why in the log, and the server goes on serving.
@Suite(.serialized, .tags(.e2e))
struct ServeConfigEndToEndTests {
    static func tabshell(_ arguments: String, in folder: URL) throws -> (status: Int32, output: String) {
        try Stress.shell("\(TmuxSession.quote(TmuxSession.binary.path)) \(arguments) </dev/null", in: folder)
    }

    @Test func checkSaysEveryProblemByLineAndStartsNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-toml-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        # a demo on every address
        listen = "127.0.0.1:0"
        demo = true
        max-sessions = 0
        max_watchers = "lots"
        no-such-option = 3
        """.write(to: folder.appendingPathComponent("serve.toml"), atomically: true, encoding: .utf8)
        let bad = try Self.tabshell("serve --config serve.toml --check", in: folder)
        #expect(bad.status == 1)
        #expect(bad.output.contains("serve.toml:4: The limits (--max-sessions"), "\(bad.output)")
        #expect(bad.output.contains("serve.toml:5: The value 'lots' is invalid for '--max-watchers"), "\(bad.output)")
        #expect(bad.output.contains("serve.toml:6: `no-such-option` is not an option of tabshell serve"), "\(bad.output)")
        #expect(!bad.output.contains("Listening"))

        // A wrong setting is wrong in the file whatever the command line gives after it.
        let fixed = try Self.tabshell("serve --config serve.toml --check --max-sessions 8 --max-watchers 5", in: folder)
        #expect(fixed.status == 1, "the file's own problems are still said: \(fixed.output)")
        try "listen = \"127.0.0.1:0\"\ndemo = true\nmax-sessions = 0\n".write(
            to: folder.appendingPathComponent("serve.toml"), atomically: true, encoding: .utf8)
        let overridden = try Self.tabshell("serve --config serve.toml --check --max-sessions=8", in: folder)
        #expect(overridden.status == 1, "each setting is checked alone, whatever follows: \(overridden.output)")
        try "listen = \"127.0.0.1:0\"\ndemo = true\nmax-sessions = 12\n".write(
            to: folder.appendingPathComponent("serve.toml"), atomically: true, encoding: .utf8)
        // The command line wins: its 0 replaces the file's 12 (and is refused).
        let good = try Self.tabshell("serve --config serve.toml --check --max-sessions=0", in: folder)
        #expect(good.status != 0 && good.output.contains("must be at least 1"), "the command line's value is the one in force: \(good.output)")
        let fine = try Self.tabshell("serve --config serve.toml --check", in: folder)
        #expect(fine.status == 0, "\(fine.output)")
        #expect(fine.output.contains("no problems; nothing was started"), "\(fine.output)")

        // false turns a flag with a --no- form off, leaves one without it out, and is still
        // said for a name that is no option.
        try "listen = \"127.0.0.1:0\"\ndemo = false\nauthorized-keys = \"keys\"\nsession-template = false\nrevoke_ends_sessions = false\nbogus = false\n".write(
            to: folder.appendingPathComponent("serve.toml"), atomically: true, encoding: .utf8)
        try "".write(to: folder.appendingPathComponent("keys"), atomically: true, encoding: .utf8)
        let offs = try Self.tabshell("serve --config serve.toml --check", in: folder)
        #expect(offs.status == 1, "\(offs.output)")
        #expect(offs.output.contains("serve.toml:6: `bogus` is not an option of tabshell serve"), "\(offs.output)")
        #expect(!offs.output.contains("serve.toml:2") && !offs.output.contains("serve.toml:4") && !offs.output.contains("serve.toml:5"), "\(offs.output)")

        let missing = try Self.tabshell("serve --config nowhere.toml --check", in: folder)
        #expect(missing.status == 1 && missing.output.contains("nowhere.toml: there is no such file; nothing is started."), "\(missing.output)")
    }

    @Test func aReloadWithABrokenFileKeepsTheRunningConfiguration() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-toml-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("serve.toml")
        try "max-sessions = 20\nidle-timeout = \"1h\"\n".write(to: file, atomically: true, encoding: .utf8)
        let server = try ServeEndToEndTests.Server(extra: ["--config", file.path])

        try "max-sessions = \"many\"\n".write(to: file, atomically: true, encoding: .utf8)
        kill(server.pid, SIGHUP)
        let kept = await ServeEndToEndTests.poll(timeout: 20) { server.appLog.contains("the running configuration is kept") }
        #expect(kept, "\(server.appLog.suffix(2000))")
        #expect(server.appLog.contains("serve.toml:1: The value 'many' is invalid for '--max-sessions"), "\(server.appLog.suffix(2000))")
        let session = try await server.session("ana")
        try session.press("q")

        try "max-sessions = 30\nidle-timeout = \"1h\"\n".write(to: file, atomically: true, encoding: .utf8)
        kill(server.pid, SIGHUP)
        let said = await ServeEndToEndTests.poll(timeout: 20) {
            server.appLog.contains("serve.toml read again on SIGHUP: max-sessions changed; they take effect at the next start")
        }
        #expect(said, "\(server.appLog.suffix(2000))")
    }
}
