import Domain
import Foundation
import Scanning
import TestSupport
import Testing

/// An AI agent asks, a person captures, the answer flows back: `tabshell mcp` driven by the
/// Model Context Protocol's own Python client (scripts/mcp-agent, `mcp` from PyPI), while the
/// app runs in a real terminal (tmux) on the same database.
@Suite(.serialized, .tags(.e2e))
struct AgentEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The agent in a tmux session of its own: it files `title`, waits up to `wait` seconds and
    /// writes what came back to `out`.
    static func agent(title: String, kind: String, wait: Int, out: URL, server: String, progress: Bool = false) throws -> TmuxSession {
        let python = root.appendingPathComponent(".build-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HarnessError("\(python) is missing: run scripts/install-deps (make test does) to make the venv with mcp")
        }
        let script = root.appendingPathComponent("scripts/mcp-agent").path
        return try TmuxSession(
            "\(TmuxSession.quote(python)) \(TmuxSession.quote(script)) --title \(TmuxSession.quote(title)) --kind \(kind) --from stock-agent "
                + "--wait \(wait)\(progress ? " --progress" : "") --out \(TmuxSession.quote(out.path)) -- \(server); echo \"[agent exit $?]\"",
            columns: 100, rows: 10)
    }

    /// The JSON the agent wrote, once it has.
    static func answer(at url: URL, within seconds: Double = 60) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let data = try? Data(contentsOf: url), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                return object
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw HarnessError("the agent wrote no answer to \(url.path) in \(Int(seconds)) s")
    }

    @Test func anAgentFilesAProductRequestAPersonAnswersItAndTheAgentGetsTheCodeAndThePhoto() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared) }
        try Self.productJourney(db: shared.appendingPathComponent("team.sqlite").path, in: shared)
    }

    /// The same journey with the app and the agent on a PostgreSQL server (one of this test's own).
    @Test(.tags(.postgres)) func onPostgreSQLTheAgentGetsTheCodeAndThePhotoToo() throws {
        let server = try PrivatePostgres(named: "agent-pg")
        defer { withExtendedLifetime(server) {} }
        try Self.productJourney(db: server.url, in: server.folder)
    }

    /// An agent files a product request on `db`, the app open on it shows it, keys capture a code
    /// and a 1600×900 photo and press Done, and the agent's wait returns both.
    static func productJourney(db: String, in shared: URL) throws {
        let out = shared.appendingPathComponent("answer.json")

        // The person's app, open on the Inbox, before the agent asks.
        let app = try TabShellEndToEndTests.launch("--db \(TmuxSession.quote(db))")
        try PhotoCaptureEndToEndTests.png(width: 1600, height: 900).write(to: app.workDirectory.appendingPathComponent("shelf.png"))
        try app.waitFor(text: "[ Inbox")

        // The agent files a request and waits; the request appears in the open Inbox.
        let agent = try Self.agent(
            title: "Photograph the shelf at door 3", kind: "product", wait: 120, out: out,
            server: "\(TmuxSession.quote(TmuxSession.binary.path)) mcp --db \(TmuxSession.quote(db))")
        defer { _ = try? agent.press("C-c") }
        let inbox = try app.waitFor(text: "Photograph the shelf at door 3")
        #expect(inbox.contains("stock-agent"), "the Inbox shows which agent asked")

        // The person answers: a code, a photo, Done.
        try app.press("Enter")
        try app.waitFor(text: "Capture · Product")
        try app.type("4006381333931")
        try app.press("Enter")
        try app.waitFor(text: "Photos (0 of")
        try app.type("shelf.png")
        try app.press("Enter")
        try app.waitFor(text: "1600×900")
        try app.press("C-d")
        try app.waitFor(text: "Saved")

        // The agent's wait returned the record as the export writes it, and the photo as an image.
        let answer = try Self.answer(at: out)
        #expect(answer["isError"] as? Bool == false)
        let texts = try #require(answer["texts"] as? [String]).joined(separator: "\n")
        #expect(texts.contains("was answered by record #1"), "\(texts)")
        #expect(texts.contains(#""barcode":{"value":"4006381333931","symbology":"ean13"}"#), "\(texts)")
        #expect(texts.contains(#""from":"stock-agent""#), "\(texts)")
        #expect(texts.contains("shelf.png, png, 1600×900 px"), "\(texts)")
        #expect(texts.contains("shown below at 1024×576 px"), "the photo is scaled to 1024 px on its longest side: \(texts)")
        let images = try #require(answer["images"] as? [[String: Any]])
        #expect(images.count == 1)
        #expect(images.first?["mimeType"] as? String == "image/jpeg")
        #expect(images.first?["jpeg"] as? Bool == true)
        #expect((images.first?["bytes"] as? Int ?? .max) <= 512 * 1024)
        try agent.waitFor(text: "[agent exit 0]")
        try app.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(app)
    }

    /// A client that asks for progress hears, every 10 s of a wait nobody answers, that it is
    /// still waiting (a client that times requests out unless it hears progress keeps a long wait
    /// alive); the wait then ends at its timeout, still pending.
    @Test func aLongWaitSaysItIsStillWaitingToAClientThatAskedForProgress() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared) }
        let db = shared.appendingPathComponent("team.sqlite").path
        let out = shared.appendingPathComponent("answer.json")

        let agent = try Self.agent(
            title: "Count the pallets", kind: "note", wait: 18, out: out,
            server: "\(TmuxSession.quote(TmuxSession.binary.path)) mcp --db \(TmuxSession.quote(db))", progress: true)
        try agent.waitFor(text: "[agent exit 2]", timeout: 60)

        let answer = try Self.answer(at: out)
        #expect((answer["structured"] as? [String: Any])?["status"] as? String == "pending")
        // One at 10 s of the 18 s wait (its value the whole seconds waited, late on a loaded run).
        let heard = try #require(answer["progress"] as? [[String: Any]])
        #expect(!heard.isEmpty, "no progress in an 18 s wait")
        for notification in heard {
            let waited = try #require(notification["progress"] as? Double)
            #expect((10...18).contains(waited) && waited == waited.rounded() && notification["total"] as? Double == 18)
            #expect(notification["message"] as? String == "Waiting for a person to answer request #1: \(Int(waited)) of 18 s.")
        }
    }

    /// `ssh host mcp` on a team server: the agent files as its key's person, a person answers in
    /// the app over ssh, and the agent's wait returns who asked and who captured.
    @Test func overOpenSSHTheAgentFilesAsItsKeysPersonAndGetsTheAnswer() throws {
        try Self.teamJourney(on: try ServeEndToEndTests.Server(people: ["ana", "ben"]))
    }

    /// The team server's store on PostgreSQL: the same journey.
    @Test(.tags(.postgres)) func overOpenSSHOnPostgreSQLTheAgentGetsTheAnswerToo() throws {
        let database = try PrivatePostgres(named: "agent-serve-pg")
        defer { withExtendedLifetime(database) {} }
        try Self.teamJourney(on: try ServeEndToEndTests.Server(people: ["ana", "ben"], store: database.url))
    }

    static func teamJourney(on server: ServeEndToEndTests.Server) throws {
        let out = server.directory.appendingPathComponent("answer.json")
        let agent = try Self.agent(
            title: "Scan the crate by the lift", kind: "barcode", wait: 120, out: out,
            server: "sh -c \(TmuxSession.quote(server.ssh("ben", "mcp", tty: false)))")
        defer { _ = try? agent.press("C-c") }
        try agent.waitFor(text: "filed 1")

        let app = try server.connect("ana")
        try app.waitFor(text: "Scan the crate by the lift")
        try app.press("Enter")
        try app.waitFor(text: "Capture · Barcode")
        try app.type("4006381333931")
        try app.press("Enter")
        try app.waitFor(text: "4006381333931")
        try app.press("C-d")
        try app.waitFor(text: "Saved")

        let answer = try Self.answer(at: out)
        let texts = try #require(answer["texts"] as? [String]).joined(separator: "\n")
        #expect(answer["isError"] as? Bool == false, "\(texts)")
        #expect(texts.contains(#""capturedBy":"ana""#), "\(texts)")
        #expect(texts.contains(#""createdBy":"ben""#), "the request is from the agent's key's person: \(texts)")
        #expect(texts.contains(#""value":"4006381333931""#), "\(texts)")
        try agent.waitFor(text: "[agent exit 0]")
        try app.press("q")
    }

    /// The demo's agents' door: a visitor's session shows an agent code in its heading; an agent
    /// given it (`ssh host mcp CODE`) files a request that arrives in that visitor's Inbox live —
    /// and in no other visitor's — and gets the visitor's answer back. A wrong code is refused.
    @Test func inTheDemoAVisitorLetsAnAgentAskThemByTheCodeTheirSessionShows() async throws {
        let server = try ServeEndToEndTests.Server(people: [], demo: true)
        let visitor = try await server.session(nil)
        let other = try await server.session(nil)
        let heading = try await visitor.waitUntil("the agent code in the heading") {
            $0.range(of: #"agent code [2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4}"#, options: .regularExpression) != nil
        }
        let found = try #require(heading.range(of: #"[2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4}"#, options: .regularExpression))
        let code = String(heading[found])

        let wrong = try Stress.shell(server.ssh(nil, "mcp 2345-6789-abcd", tty: false) + " </dev/null")
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("no demo session shows the agent code 2345-6789-abcd"), "\(wrong.output)")

        let out = server.directory.appendingPathComponent("answer.json")
        let agent = try Self.agent(
            title: "Scan the mug on your desk", kind: "barcode", wait: 120, out: out,
            server: "sh -c \(TmuxSession.quote(server.ssh(nil, "mcp \(code)", tty: false)))")
        defer { _ = try? agent.press("C-c") }
        try await visitor.waitUntil("the request, live") { $0.contains("Scan the mug on your desk") }
        // The newest pending request is the first row (the demo's own requests are below it).
        try visitor.press("g")
        try visitor.press("Enter")
        try await visitor.waitUntil("capture") { $0.contains("Capture · Barcode") }
        try visitor.type("4006381333931")
        try visitor.press("Enter")
        try await visitor.waitUntil("the scan") { $0.contains("4006381333931") }
        try visitor.press("C-d")
        try await visitor.waitUntil("saved") { $0.contains("Saved") }

        let answer = try Self.answer(at: out)
        let texts = try #require(answer["texts"] as? [String]).joined(separator: "\n")
        #expect(answer["isError"] as? Bool == false, "\(texts)")
        #expect(texts.contains(#""value":"4006381333931""#), "\(texts)")
        try agent.waitFor(text: "[agent exit 0]")
        let elsewhere = try other.screen()
        #expect(!elsewhere.contains("Scan the mug"), "another visitor's Inbox never shows it:\n\(elsewhere)")
        #expect(!elsewhere.contains(code), "nor their code")
        try visitor.press("q")
        try other.press("q")
    }

    /// A protocol-level attack on the server, with the SDK's own client around it: a 3 MB line,
    /// bad JSON and an unknown method are answered (or dropped) and the server still serves.
    @Test func aHugeLineBadJSONAndAnUnknownMethodLeaveTheServerServing() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared) }
        let db = shared.appendingPathComponent("t.sqlite").path
        let hugeTitle = String(repeating: "x", count: 3_000_000)
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"request_capture","arguments":{"title":""# + hugeTitle + #""}}}"#,
            "{not json at all",
            #"{"jsonrpc":"2.0","id":3,"method":"no/such/method"}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"request_capture","arguments":{"title":"Still here"}}}"#,
        ]
        let input = shared.appendingPathComponent("in.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let output = shared.appendingPathComponent("out.jsonl")
        let status = try TmuxSession.spawnAndWait(
            ["/bin/sh", "-c", "exec \(TmuxSession.quote(TmuxSession.binary.path)) mcp --db \(TmuxSession.quote(db)) < \(TmuxSession.quote(input.path))"],
            stdout: output.path)
        #expect(status == 0)
        let answers = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(answers.contains { $0.contains("A message can be at most 1048576 bytes; this one was dropped.") }, "\(answers)")
        #expect(answers.contains { $0.contains(#""id":3"#) && $0.contains(#""error""#) }, "\(answers)")
        #expect(answers.contains { $0.contains(#""id":4"#) && $0.contains("Filed request #1") }, "\(answers)")
        #expect(!answers.contains { $0.contains(#""id":2"#) }, "the dropped call has no answer")
    }
    /// A client that files 1,000 requests at once, then waits 600 s and hangs up mid-wait: 60
    /// are filed (the minute's bucket, plus its refill while they run), every other is refused saying so, and the wait ends when
    /// the client's end closes, saying why, its answer written before the server exits.
    @Test func aThousandRequestsAtOnceThenAHangUpMidWait() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared) }
        let db = shared.appendingPathComponent("t.sqlite").path
        var lines = [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ]
        for index in 1...1000 {
            lines.append(
                #"{"jsonrpc":"2.0","id":\#(index),"method":"tools/call","params":{"name":"request_capture","arguments":{"title":"Flood \#(index)"}}}"#)
        }
        lines.append(
            #"{"jsonrpc":"2.0","id":5000,"method":"tools/call","params":{"name":"wait_for_answer","arguments":{"request_id":1,"timeout_seconds":600}}}"#)
        let input = shared.appendingPathComponent("in.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let output = shared.appendingPathComponent("out.jsonl")
        // The input ends after the wait's call: the client has hung up while it waits.
        let began = Date()
        let status = try TmuxSession.spawnAndWait(
            ["/bin/sh", "-c", "exec \(TmuxSession.quote(TmuxSession.binary.path)) mcp --db \(TmuxSession.quote(db)) < \(TmuxSession.quote(input.path))"],
            stdout: output.path)
        // The bucket refills one filing a second: a slow run may file one more for each second.
        let refilled = Int(Date().timeIntervalSince(began).rounded(.up))
        #expect(status == 0)
        let answers = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        let filed = answers.filter { $0.contains("Filed request #") }
        let refused = answers.filter { $0.contains("Too many requests: an agent may file at most 60 a minute") }
        #expect((60...60 + refilled).contains(filed.count), "\(filed.count) filed in \(refilled) s")
        #expect(filed.count + refused.count == 1000, "every call is answered: \(filed.count) filed, \(refused.count) refused")
        let wait = answers.first { $0.contains(#""id":5000"#) } ?? ""
        #expect(wait.contains("the wait ended early because the client closed its end"), "\(wait)")
        let listed = try Stress.shell("\(TmuxSession.quote(TmuxSession.binary.path)) inbox list --db \(TmuxSession.quote(db)) </dev/null")
        #expect(listed.output.split(separator: "\n").filter { $0.contains("Flood ") }.count == filed.count, "\(listed.output)")
    }
}
