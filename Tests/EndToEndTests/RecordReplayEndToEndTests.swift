import Domain
import Foundation
import Recording
import TestSupport
import Testing

/// Record and replay end to end: a session served over real `ssh` in tmux recorded
/// by `serve --record`, the cast read back (the client's size, the resize, the tab bar), played
/// by asciinema when it is installed and by `tabshell replay` in tmux; `--record FILE` locally;
/// the player's keys, its filter against a hostile cast, and the terminal put back however the
/// player ends.
@Suite(.serialized, .tags(.e2e))
struct RecordReplayEndToEndTests {
    /// The cast at `path` once `condition` holds for it (the recorder writes as the session runs).
    static func cast(at path: String, timeout: Double = 10, until condition: (Cast) -> Bool) async throws -> Cast {
        let deadline = Date().addingTimeInterval(timeout)
        var last: String = "no file"
        while true {
            do {
                let cast = try CastReader.read(path: path)
                if condition(cast) { return cast }
                last = "\(cast.events.count) events, the condition not met"
            } catch {
                last = "\(error)"
            }
            if Date() >= deadline { throw HarnessError("the cast at \(path) never got there: \(last)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func resized(_ cast: Cast, _ columns: Int, _ rows: Int) -> Bool {
        cast.events.contains { $0.kind == .resize(columns: columns, rows: rows) }
    }

    /// The app shows the cursor again as it ends, after its last frame: the recording has that
    /// frame. (Its leaving the alternate screen is not recorded: the player owns that screen.)
    static func complete(_ cast: Cast) -> Bool {
        let text = cast.outputText
        guard let last = text.range(of: "History", options: .backwards) else { return false }
        return text[last.upperBound...].contains("\u{1B}[?25h")
    }

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func aServedSessionIsRecordedAtTheClientsSizeAndReplays() async throws {
        let folder = try TemporaryFolder(prefix: "record-e2e")
        let casts = folder.path("casts")  // made by the server, 0700
        let server = try ServeEndToEndTests.Server(people: [], demo: true, extra: ["--record", casts])
        let client = try TmuxSession(
            "\(TmuxSession.survivesKeyboardSignals) \(server.ssh(nil)) </dev/tty & \(TmuxSession.waitForApp) echo \"[app exit $code]\"",
            columns: 100, rows: 30)
        try await client.waitUntil("the tab bar over ssh", timeout: 30) { $0.contains("[ Inbox") && $0.contains("Settings") }
        let names = try FileManager.default.contentsOfDirectory(atPath: casts)
        try #require(names.count == 1, "one cast for the one session: \(names)")
        #expect(names[0].range(of: #"^\d{8}T\d{6}Z-s0001-[A-Za-z0-9._-]+\.cast$"#, options: .regularExpression) != nil, "\(names[0])")
        let path = casts + "/" + names[0]
        try client.resize(columns: 90, rows: 28)
        _ = try await Self.cast(at: path) { Self.resized($0, 90, 28) }
        try client.press("3")
        try await client.waitUntil("History") { $0.contains("[ History") }
        try client.press("q")
        #expect(try await ServeEndToEndTests.exitCode(client) == 0)

        let cast = try await Self.cast(at: path, timeout: 5) { Self.complete($0) }
        #expect(cast.header.width == 100 && cast.header.height == 30, "the client's size: \(cast.header)")
        #expect(cast.header.environment["TERM"] == "tmux-256color")
        #expect(cast.header.timestamp.map { abs(Double($0) - Date().timeIntervalSince1970) < 300 } == true)
        #expect(Self.resized(cast, 90, 28))
        let text = cast.outputText
        #expect(text.contains("Inbox") && text.contains("Settings") && text.contains("History"))
        #expect(Self.mode(path) == 0o600 && Self.mode(casts) == 0o700)
        // Every line is what asciicast v2 says, checked apart from our own reader.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2 && header["width"] as? Int == 100 && header["height"] as? Int == 30)
        for line in lines.dropFirst() {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], "\(line)")
            #expect(event.count == 3 && event[0] is NSNumber && ["o", "r"].contains(event[1] as? String) && event[2] is String, "\(line)")
        }
        // Demo mode keeps the server's log in its own data folder.
        let log = (try? String(contentsOfFile: server.directory.path + "/xdg/tabshell/tabshell.log", encoding: .utf8)) ?? ""
        #expect(log.contains("recording the session") && log.contains(names[0]), "\(log.suffix(2000))")

        // asciinema plays it (`asciinema cat` reads keys from /dev/tty: run in tmux).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/asciinema") {
            let player = try TmuxSession("asciinema cat \(TmuxSession.quote(path)) > cat.out 2> cat.err")
            try await player.waitUntil(text: "[exit ")
            let out = (try? String(contentsOf: player.workDirectory.appendingPathComponent("cat.out"), encoding: .utf8)) ?? ""
            let err = (try? String(contentsOf: player.workDirectory.appendingPathComponent("cat.err"), encoding: .utf8)) ?? ""
            #expect(try player.screen().contains("[exit 0]") && out.contains("Inbox"), "asciinema cat: \(err.suffix(500))")
        }

        // Played back in a terminal: the recorded screens, then it ends by itself, the terminal as
        // it was. A tenth of the speed: the test's own session lasts well under a second.
        let replay = try TmuxSession.gatedLaunch("replay --speed 0.1 \(TmuxSession.quote(path))", columns: 100, rows: 30)
        try replay.go()
        // At a tenth of the speed the replay lasts ten times what the recorded session did,
        // which a loaded machine stretches: the waits allow for it.
        try await replay.waitUntil("the recorded tab bar", timeout: 60) { $0.contains("[ Inbox") && $0.contains("Settings") }
        try await replay.waitUntil("the recorded History", timeout: 60) { $0.contains("[ History") }
        _ = try replay.waitFor(text: "[app exit", timeout: 60)
        #expect(try TabShellEndToEndTests.exitCode(replay) == 0)
        try TabShellEndToEndTests.expectTerminalRestored(replay)
    }

    /// Team mode records nobody's work unless they present: ana's ordinary session leaves DIR
    /// empty. (The file of a recorded session is made when the launcher decides, before the app
    /// draws, so the tab bar on screen means the decision is made.)
    @Test func inTeamModeAnOrdinarySessionIsNotRecorded() async throws {
        let folder = try TemporaryFolder(prefix: "record-e2e")
        let casts = folder.path("casts")
        let server = try ServeEndToEndTests.Server(extra: ["--record", casts])
        let ana = try await server.session("ana")
        #expect(try FileManager.default.contentsOfDirectory(atPath: casts).isEmpty)
        try ana.press("q")
        #expect(try await ServeEndToEndTests.exitCode(ana) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: casts).isEmpty)
    }

    /// A cast with long pauses, and on its first line what a hostile file would try: a clipboard
    /// write, a title, a device-attributes query whose answer would be typed back, mouse reporting.
    static func writeHostileCast(in folder: TemporaryFolder) throws -> String {
        let lines = [
            #"{"version": 2, "width": 80, "height": 24}"#,
            #"[0.1, "o", "\u001b]52;c;cHduZWQ=\u0007\u001b]2;PWNED-TITLE\u0007\u001b[c\u001b[?1000h\u001b[1mMARKER-ONE\u001b[0m"]"#,
            #"[60, "o", "\r\nMARKER-TWO"]"#,
            #"[120, "o", "\r\nMARKER-THREE"]"#,
        ]
        let path = folder.path("long.cast")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func arrowSkipsAPauseQuitsOnQAndNothingHostileReachesTheTerminal() async throws {
        let folder = try TemporaryFolder(prefix: "replay-e2e")
        let path = try Self.writeHostileCast(in: folder)
        let s = try TmuxSession.gatedLaunch("replay \(TmuxSession.quote(path)) --idle-limit 100")
        try s.tmux(["set", "-s", "set-clipboard", "on"])
        try s.go()
        try await s.waitUntil(text: "MARKER-ONE")
        // Without the skip, the next line comes 60 seconds later.
        try s.press("Right")
        try await s.waitUntil(text: "MARKER-TWO")
        try s.press("q")
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(!(try s.screen()).contains("MARKER-THREE"))
        #expect(try s.tmux(["list-buffers", "-F", "#{buffer_name}"]).isEmpty, "no clipboard write reached tmux")
        #expect(try s.pane("pane_title") != "PWNED-TITLE")
        #expect(try s.pane("mouse_any_flag") == "0")
        #expect(!(try s.screen()).contains("?1;2c"), "no device attributes answer typed into the shell")
    }

    @Test func hangUpAndCtrlCPutTheTerminalBack() async throws {
        let folder = try TemporaryFolder(prefix: "replay-e2e")
        let path = try Self.writeHostileCast(in: folder)
        let hungUp = try TmuxSession.gatedLaunch("replay \(TmuxSession.quote(path)) --idle-limit 100")
        try hungUp.go()
        try await hungUp.waitUntil(text: "MARKER-ONE")
        let pid = try #require(
            Int32(try String(contentsOf: hungUp.workDirectory.appendingPathComponent("app.pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGHUP)
        #expect(try TabShellEndToEndTests.exitCode(hungUp) == 129)
        try TabShellEndToEndTests.expectTerminalRestored(hungUp)

        let interrupted = try TmuxSession.gatedLaunch("replay \(TmuxSession.quote(path)) --idle-limit 100")
        try interrupted.go()
        try await interrupted.waitUntil(text: "MARKER-ONE")
        try interrupted.press("C-c")
        #expect(try TabShellEndToEndTests.exitCode(interrupted) == 0)
        try TabShellEndToEndTests.expectTerminalRestored(interrupted)
    }

    @Test func theLocalAppIsRecordedIntoANewFile() async throws {
        let s = try TabShellEndToEndTests.launch("--demo --record local.cast", columns: 100, rows: 30)
        try await s.waitUntil("the tab bar") { $0.contains("[ Inbox") && $0.contains("Settings") }
        let path = s.workDirectory.appendingPathComponent("local.cast").path
        try s.resize(columns: 90, rows: 28)
        _ = try await Self.cast(at: path) { Self.resized($0, 90, 28) }
        try s.press("3")
        try await s.waitUntil("History") { $0.contains("[ History") }
        try s.press("q")
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
        try TabShellEndToEndTests.expectTerminalRestored(s)
        let cast = try await Self.cast(at: path, timeout: 5) { Self.complete($0) }
        #expect(cast.header.width == 100 && cast.header.height == 30)
        #expect(cast.outputText.contains("Inbox") && cast.outputText.contains("History"))
        #expect(Self.mode(path) == 0o600)

        // An existing file is never overwritten.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let again = try Stress.shell("\(TmuxSession.quote(TmuxSession.binary.path)) --demo --record local.cast </dev/null", in: s.workDirectory)
        #expect(again.status != 0 && again.output.contains("local.cast exists"), "\(again.output)")
        #expect(again.output.split(separator: "\n").count == 1, "one sentence: \(again.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFileThatIsNoCastIsSaidInOneSentence() throws {
        let folder = try TemporaryFolder(prefix: "replay-e2e")
        let files = [
            ("notes.txt", "shopping list\n", "notes.txt is not an asciicast recording: its first line is not a JSON header."),
            ("old.cast", "{\n \"version\": 1,\n \"stdout\": []\n}\n", "old.cast is asciicast version 1; only version 2 is played."),
            (
                "exp.json", "{\n \"format\": \"tabshell-history\",\n \"version\": 1,\n \"records\": []\n}\n",
                "exp.json is not an asciicast recording: its first line is not a JSON header."
            ),
            (
                "broken.cast", "{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.1, \"o\", \"a\"]\n[0.2, \"o\"\n",
                "broken.cast cannot be replayed: line 3: the line is not an event ([time, code, data])."
            ),
            ("empty.cast", "", "empty.cast is empty, not an asciicast recording."),
        ]
        for (name, text, sentence) in files {
            try text.write(toFile: folder.path(name), atomically: true, encoding: .utf8)
            let result = try Stress.shell("\(TmuxSession.quote(TmuxSession.binary.path)) replay \(name) </dev/null", in: folder.url)
            #expect(result.status == 1, "\(name): \(result.output)")
            #expect(result.output.contains(sentence) && result.output.split(separator: "\n").count == 1, "\(name): \(result.output)")
        }
        // Nothing there: one sentence, none of Foundation's.
        let missing = try Stress.shell("\(TmuxSession.quote(TmuxSession.binary.path)) replay x.cast </dev/null", in: folder.url)
        #expect(missing.status == 1 && missing.output.hasSuffix("No such file: x.cast.\n") && missing.output.split(separator: "\n").count == 1, "\(missing.output)")
    }
}
