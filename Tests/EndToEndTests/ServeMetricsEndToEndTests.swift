import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `tabshell serve --metrics` end to end: the built binary serving over SSH to the real OpenSSH
/// client, its endpoint read over a plain TCP socket, the exposition checked by Prometheus' own
/// `promtool`, and the endpoint asked the worst a hostile client asks.
@Suite(.serialized, .tags(.e2e))
struct ServeMetricsEndToEndTests {
    /// Where promtool is (Debian's prometheus package; scripts/install-deps installs it).
    static let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A team server on SQLite with `--metrics 127.0.0.1:0`: ana's key is authorized, eve's is not.
    static func teamServer() throws -> (ServeEndToEndTests.Server, port: Int) {
        let server = try ServeEndToEndTests.Server(people: ["ana"], extra: ["--metrics", "127.0.0.1:0"])
        let eve = server.directory.appendingPathComponent("keys/eve").path
        let made = try Stress.shell("ssh-keygen -q -t ed25519 -N '' -C eve -f \(TmuxSession.quote(eve))")
        guard made.status == 0 else { throw HarnessError("ssh-keygen failed: \(made.output)") }
        return (server, try metricsPort(of: server))
    }

    /// The port `Metrics on http://127.0.0.1:PORT/metrics` names in the start report.
    static func metricsPort(of server: ServeEndToEndTests.Server) throws -> Int {
        var port: Int?
        _ = Stress.poll(timeout: 15) {
            let text = server.serverLog
            if let range = text.range(of: #"Metrics on http://127\.0\.0\.1:\d+/metrics"#, options: .regularExpression) {
                port = Int(text[range].dropLast("/metrics".count).split(separator: ":").last ?? "")
            }
            return port != nil
        }
        guard let port else { throw HarnessError("no metrics address in the start report:\n\(server.serverLog)") }
        return port
    }

    /// Scrapes until `condition` holds on the samples (at most `timeout` seconds); the last scrape.
    static func scrape(
        _ port: Int, until what: String, timeout: Double = 30, _ condition: (Exposition) -> Bool
    ) async throws -> Exposition {
        var last = Exposition(text: "")
        let met = await ServeEndToEndTests.poll(timeout: timeout) {
            guard let answer = try? HTTPExchange.request("GET /metrics HTTP/1.1\r\nHost: test\r\n\r\n", port: port), answer.status == 200
            else { return false }
            last = Exposition(text: answer.body)
            return condition(last)
        }
        guard met else { throw HarnessError("the metrics never showed \(what); last scrape:\n\(last.text)") }
        return last
    }

    @Test func sessionsRefusalsAndAuthenticationsAreCountedWithBoundedLabels() async throws {
        let (server, port) = try Self.teamServer()

        let listed = try Stress.shell(server.ssh("ana", "inbox list", tty: false))
        #expect(listed.status == 0, "\(listed.output)")
        let refused = try Stress.shell(server.ssh("ana", "sh", tty: false))
        #expect(refused.output.contains("is not an allowed command"), "\(refused.output)")
        let stranger = try Stress.shell(server.ssh("eve", "inbox list", tty: false))
        #expect(stranger.status != 0 && stranger.output.contains("Permission denied"), "\(stranger.output)")
        // Held to the end of the test: the tmux session (and ana's app) goes with it.
        let app = try await server.session("ana")

        let seen = try await Self.scrape(port, until: "ana's sessions and eve's refusal") { metrics in
            metrics.value("tabshell_sessions_started_total", ["mode": "command"]) == 1
                && metrics.value("tabshell_sessions_ended_total", ["mode": "command"]) == 1
                && metrics.value("tabshell_sessions_active", ["mode": "app"]) == 1
                && metrics.value("tabshell_sessions_started_total", ["mode": "app"]) == 1
        }
        #expect(seen.value("tabshell_sessions_refused_total", ["reason": "launcher"]) == 1, "\(seen.text)")
        #expect((seen.value("tabshell_auth_attempts_total", ["result": "refused"]) ?? 0) >= 1, "eve's key: \(seen.text)")
        #expect((seen.value("tabshell_auth_attempts_total", ["result": "accepted"]) ?? 0) >= 3, "\(seen.text)")
        #expect(seen.value("tabshell_connections_accepted_total", [:]) == 4, "\(seen.text)")
        #expect(seen.value("tabshell_connections_refused_total", ["reason": "max_connections"]) == 0, "\(seen.text)")
        #expect(seen.value("tabshell_store_reachable", [:]) == 1, "\(seen.text)")
        #expect(seen.value("tabshell_build_info", ["version": "0.1.0"]) == 1, "\(seen.text)")
        #expect(seen.value("tabshell_watchers", [:]) == 0, "\(seen.text)")

        // Every label is one of four names, and every value one of a fixed list's words (or the
        // version): no address, key, fingerprint or name.
        let keyText = try String(contentsOfFile: server.directory.appendingPathComponent("keys/ana.pub").path, encoding: .utf8)
        let secrets = ["ana", "eve", "127.0.0.1", "SHA256:", String(keyText.split(separator: " ")[1].prefix(20))]
        #expect(!seen.samples.isEmpty)
        for sample in seen.samples {
            for (name, value) in sample.labels {
                #expect(["mode", "reason", "result", "version"].contains(name), "\(sample.name): label \(name)")
                let word = value.range(of: #"^[a-z_]+$"#, options: .regularExpression) != nil
                let version = name == "version" && value.range(of: #"^[0-9.]+$"#, options: .regularExpression) != nil
                #expect(word || version, "\(sample.name){\(name)=\"\(value)\"}")
                #expect(!secrets.contains(where: { value.contains($0) }), "\(sample.name){\(name)=\"\(value)\"}")
            }
        }
        let series = seen.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(!secrets.contains(where: { series.contains($0) }), "a series names someone or somewhere:\n\(series)")
        withExtendedLifetime(app) {}
    }

    @Test(.enabled(if: promtool != nil, "promtool is not installed (Debian's prometheus package; scripts/install-deps installs it)"))
    func promtoolFindsNothingWrongWithTheExposition() async throws {
        let (server, port) = try Self.teamServer()
        _ = try Stress.shell(server.ssh("ana", "inbox list", tty: false))
        _ = try Stress.shell(server.ssh("eve", "inbox list", tty: false))
        let seen = try await Self.scrape(port, until: "a session") { $0.value("tabshell_sessions_ended_total", ["mode": "command"]) == 1 }
        let file = server.directory.appendingPathComponent("metrics.txt")
        try seen.text.write(to: file, atomically: true, encoding: .utf8)
        let checked = try Stress.shell("\(Self.promtool ?? "promtool") check metrics < \(TmuxSession.quote(file.path))")
        #expect(checked.status == 0, "promtool check metrics:\n\(checked.output)\n\(seen.text)")
    }

    @Test func theEndpointAnswersOnlyWhatItServesAndCutsOffHostileClients() async throws {
        let server = try ServeEndToEndTests.Server(demo: true, extra: ["--metrics", "127.0.0.1:0"])
        let port = try Self.metricsPort(of: server)

        #expect(try HTTPExchange.request("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n", port: port).status == 200)
        let ready = try await Self.scrape(port, until: "the demo folder reachable") { $0.value("tabshell_store_reachable", [:]) == 1 }
        #expect(ready.value("tabshell_store_reachable", [:]) == 1)
        #expect(try HTTPExchange.request("GET /readyz HTTP/1.1\r\nHost: t\r\n\r\n", port: port).status == 200)
        #expect(try HTTPExchange.request("GET /metrics/../etc/passwd HTTP/1.1\r\nHost: t\r\n\r\n", port: port).status == 404)
        #expect(try HTTPExchange.request("GET / HTTP/1.1\r\nHost: t\r\n\r\n", port: port).status == 404)
        let posted = try HTTPExchange.request("POST /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi", port: port)
        #expect(posted.status == 405 && posted.head.contains("Allow: GET, HEAD"), "\(posted.head)")
        let head = try HTTPExchange.request("HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\n", port: port)
        #expect(head.status == 200 && head.body.isEmpty, "\(head.head)")
        #expect(try HTTPExchange.request("GARBAGE\r\n\r\n", port: port).status != 200)

        // A request head of 20 KiB: closed without an answer.
        let huge = "GET /metrics HTTP/1.1\r\nHost: t\r\nX-Padding: " + String(repeating: "a", count: 20 * 1024) + "\r\n\r\n"
        let cut = try HTTPExchange.request(huge, port: port)
        #expect(cut.status == nil, "a 20 KiB head was answered: \(cut.head)")

        // A client that sends half a request line and waits: the server closes it (after its
        // connection deadline; the read waits up to 30 s for that).
        let slow = try HTTPExchange.connect(port: port)
        defer { close(slow) }
        HTTPExchange.send("GET /metr", on: slow)
        let slowAnswer = HTTPExchange.readToEnd(slow)
        #expect(slowAnswer.closed && slowAnswer.bytes.isEmpty, "the slow client got \(slowAnswer)")

        // Silent connections up to the limit (16) and one more: the extra one is closed at once,
        // with nothing said, while the others are held.
        var silent: [Int32] = []
        defer { for socket in silent { close(socket) } }
        for _ in 0..<16 { silent.append(try HTTPExchange.connect(port: port)) }
        let extra = try HTTPExchange.connect(port: port)
        defer { close(extra) }
        HTTPExchange.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n", on: extra)
        let refused = HTTPExchange.readToEnd(extra)
        #expect(refused.closed && !String(decoding: refused.bytes, as: UTF8.self).contains("200 OK"), "the 17th connection: \(refused)")
        for socket in silent { close(socket) }
        silent = []

        // Through all of it the server still answers, once the held connections are gone.
        let after = await ServeEndToEndTests.poll(timeout: 30) {
            (try? HTTPExchange.request("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n", port: port).status) == 200
        }
        #expect(after, "the endpoint stopped answering")
        let ssh = try Stress.shell(server.ssh(nil, "inbox list", tty: false))
        #expect(ssh.status == 0, "the SSH side: \(ssh.output)")
    }
}

/// `--metrics` in team mode on PostgreSQL: /readyz follows a server that stops answering
/// (SIGSTOP: connections stay open, nothing answers) and comes back. The server is one of this
/// suite's own (scripts/pg-test-server with a state file of its own), so freezing it disturbs
/// no other suite.
@Suite(.serialized, .tags(.e2e, .postgres))
struct ServeReadinessEndToEndTests {
    static func readiness(_ port: Int) -> Int? {
        try? HTTPExchange.request("GET /readyz HTTP/1.1\r\nHost: t\r\n\r\n", port: port).status
    }

    @Test func readyzFollowsAFrozenStoreAndItsReturn() async throws {
        let database = try PrivatePostgres(named: "tabshell-pg-ready")
        defer { withExtendedLifetime(database) {} }
        let server = try ServeEndToEndTests.Server(people: ["ana"], store: database.url, extra: ["--metrics", "127.0.0.1:0"])
        let port = try ServeMetricsEndToEndTests.metricsPort(of: server)
        #expect(await ServeEndToEndTests.poll(timeout: 30) { Self.readiness(port) == 200 }, "never ready:\n\(server.serverLog)")

        try database.freeze()
        let frozenAt = Date()
        let unready = await ServeEndToEndTests.poll(timeout: 30) { Self.readiness(port) == 503 }
        let toUnready = Date().timeIntervalSince(frozenAt)
        #expect(unready, "/readyz still not 503 30 s after the store froze")
        let during = try await ServeMetricsEndToEndTests.scrape(port, until: "the store unreachable") {
            $0.value("tabshell_store_reachable", [:]) == 0
        }
        #expect(during.value("tabshell_store_reachable", [:]) == 0)
        #expect(try HTTPExchange.request("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n", port: port).status == 200, "alive while the store is not")

        try database.thaw()
        let thawedAt = Date()
        let ready = await ServeEndToEndTests.poll(timeout: 30) { Self.readiness(port) == 200 }
        let toReady = Date().timeIntervalSince(thawedAt)
        #expect(ready, "/readyz not 200 again 30 s after the store thawed")
        print("ServeReadinessEndToEndTests: /readyz 503 \(String(format: "%.2f", toUnready)) s after the freeze, 200 \(String(format: "%.2f", toReady)) s after the thaw")
    }
}

/// One HTTP/1.1 exchange over a plain TCP socket on loopback: the test's own client, so the
/// server's answer (or its silence) is seen byte for byte.
enum HTTPExchange {
    struct Answer {
        var status: Int?
        var head: String
        var body: String
    }

    /// Sends `request` as it is and reads until the server closes; the status is nil when the
    /// server closed without an answer.
    static func request(_ request: String, port: Int) throws -> Answer {
        let socket = try connect(port: port)
        defer { close(socket) }
        send(request, on: socket)
        let text = String(decoding: readToEnd(socket).bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Answer(status: nil, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        return Answer(status: head.hasPrefix("HTTP/1.") ? status : nil, head: head, body: String(text[split.upperBound...]))
    }

    /// A connected socket whose reads give up after 30 s.
    static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw HarnessError("connect to 127.0.0.1:\(port): \(errno)")
        }
        var wait = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    /// Sends what it can; a server that closed first is not an error here.
    static func send(_ text: String, on socket: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// What the server sent until it closed (`closed`), or until 30 s of silence (not `closed`).
    static func readToEnd(_ socket: Int32) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 || errno == ECONNRESET {
                return (bytes, true)
            } else if errno != EINTR {
                return (bytes, false)
            }
        }
    }
}

/// A Prometheus text exposition, read into its samples.
struct Exposition {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    let text: String
    let samples: [Sample]

    init(text: String) {
        self.text = text
        samples = text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                return nil
            }
            let series = line[..<space]
            let name = String(series.prefix { $0 != "{" })
            var labels: [String: String] = [:]
            if let open = series.firstIndex(of: "{") {
                let inside = String(series[series.index(after: open)...].dropLast())
                let pattern = #"([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)""#
                var rest = inside[...]
                while let range = rest.range(of: pattern, options: .regularExpression) {
                    let pair = rest[range]
                    if let equals = pair.firstIndex(of: "=") {
                        labels[String(pair[..<equals])] = String(pair[pair.index(equals, offsetBy: 2)...].dropLast())
                    }
                    rest = rest[range.upperBound...]
                }
            }
            return Sample(name: name, labels: labels, value: value)
        }
    }

    /// The value of the series `name` with exactly `labels`.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }
}
