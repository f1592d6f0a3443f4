import Foundation
import TestSupport
import Testing

/// The fail2ban filter the package ships (packaging/fail2ban/filter.d/tabshell.conf) read by
/// fail2ban's own `fail2ban-regex` (Debian's fail2ban, scripts/install-deps) against the log of
/// the built `tabshell serve` in team mode, in each `--log-format`: failed logins made by the
/// real OpenSSH client and by paramiko (a password, which OpenSSH does not send to a server that
/// takes keys only), each from its own loopback address, are matched once a line with the
/// address they came from; successful logins and their sessions never are.
@Suite(.serialized, .tags(.e2e))
struct FailToBanEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let filter = root.appendingPathComponent("packaging/fail2ban/filter.d/tabshell.conf").path
    static let python = root.appendingPathComponent(".build-venv/bin/python").path

    typealias Server = ServeEndToEndTests.Server

    /// `ssh` from `source` (a loopback address of its own) with `keys`, or with none offered.
    static func ssh(_ server: Server, from source: String, keys: [String], login: String = "visitor", _ remote: String = "true") -> String {
        var line =
            "ssh -T -F /dev/null -p \(server.port) -b \(source) -o BatchMode=yes -o StrictHostKeyChecking=no "
            + "-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=10 -o User=\(TmuxSession.quote(login)) "
        if keys.isEmpty {
            line += "-o PubkeyAuthentication=no -o PreferredAuthentications=password,keyboard-interactive "
        } else {
            line += "-o IdentitiesOnly=yes " + keys.map { "-i \(TmuxSession.quote($0)) " }.joined()
        }
        return line + "127.0.0.1 " + remote
    }

    /// A password offered by paramiko from `source`, as a client that tries one anyway does, for
    /// a login name that holds another address in each format's way of writing a field: the
    /// filter must still take the address the connection came from.
    static func password(_ server: Server, from source: String) throws -> (status: Int32, output: String) {
        let script = """
            import socket, paramiko
            s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=10, source_address=("\(source)", 0))
            t = paramiko.Transport(s)
            t.start_client(timeout=10)
            try:
                t.auth_password("mallory address=9.9.9.9:1 \\"address\\":\\"9.9.9.9:1\\"", "hunter2")
                print("accepted")
            except paramiko.AuthenticationException as e:
                print("refused", type(e).__name__)
            t.close()
            """
        return try Stress.shell("\(TmuxSession.quote(python)) -c \(TmuxSession.quote(script))")
    }

    static func logFile(_ server: Server) -> String {
        server.database.deletingLastPathComponent().appendingPathComponent("tabshell.log").path
    }

    /// The addresses fail2ban-regex finds in `log`, one a matched line, sorted; and its summary.
    static func matches(_ log: String) throws -> (hosts: [String], summary: String) {
        let found = try Stress.shell("fail2ban-regex -o ip \(TmuxSession.quote(log)) \(TmuxSession.quote(filter))")
        #expect(found.status == 0, "fail2ban-regex -o ip:\n\(found.output)")
        let hosts = found.output.split(separator: "\n").map(String.init).filter { $0.range(of: #"^[0-9a-f.:]+$"#, options: .regularExpression) != nil }
        let summary = try Stress.shell("fail2ban-regex \(TmuxSession.quote(log)) \(TmuxSession.quote(filter)) | grep '^Lines:'").output
        return (hosts.sorted(), summary)
    }

    /// Waits until the log says `count` connections have closed (each failure's line is written
    /// when its connection closes at the latest).
    static func waitForDisconnections(_ server: Server, count: Int) -> Bool {
        Stress.poll(timeout: 30) {
            server.appLog.components(separatedBy: "disconnected").count - 1 >= count
        }
    }

    @Test(arguments: ["text", "json"])
    func everyFailedLoginIsMatchedWithItsAddressAndNoSuccessIs(format: String) throws {
        let server = try Server(people: ["ana", "ben"], extra: ["--log-format", format, "--max-auth-tries", "2"])
        let keys = server.directory.appendingPathComponent("keys")
        var strangers: [String] = []
        for index in 1...3 {
            let key = keys.appendingPathComponent("stranger\(index)").path
            let made = try Stress.shell("ssh-keygen -q -t ed25519 -N '' -C stranger -f \(TmuxSession.quote(key))")
            try #require(made.status == 0, "ssh-keygen: \(made.output)")
            strangers.append(key)
        }
        var expected: [String] = []

        // A key not in the file, three times from 127.0.0.2: a line each.
        for _ in 1...3 {
            let run = try Stress.shell(Self.ssh(server, from: "127.0.0.2", keys: [strangers[0]], login: "ana"))
            #expect(run.status != 0 && run.output.contains("Permission denied"), "\(run.output)")
            expected.append("127.0.0.2")
        }
        // No key at all, only a password, twice from 127.0.0.3 as an unknown user: the server
        // offers keys only, the client gives up, a line each when it leaves.
        for _ in 1...2 {
            let run = try Stress.shell(Self.ssh(server, from: "127.0.0.3", keys: [], login: "mallory"))
            #expect(run.status != 0 && run.output.contains("Permission denied"), "\(run.output)")
            expected.append("127.0.0.3")
        }
        // Three unknown keys from 127.0.0.4 with --max-auth-tries 2: two refused, then the
        // connection is ended: three lines.
        let tooMany = try Stress.shell(Self.ssh(server, from: "127.0.0.4", keys: strangers, login: "ana"))
        #expect(tooMany.status != 0, "\(tooMany.output)")
        expected += ["127.0.0.4", "127.0.0.4", "127.0.0.4"]
        // A password sent anyway (paramiko), from 127.0.0.6.
        let guessed = try Self.password(server, from: "127.0.0.6")
        #expect(guessed.output.contains("refused"), "paramiko: \(guessed.output)")
        expected.append("127.0.0.6")

        // Three successful logins, each running a session, from 127.0.0.5.
        for person in ["ana", "ben", "ana"] {
            let run = try Stress.shell(Self.ssh(server, from: "127.0.0.5", keys: [keys.appendingPathComponent(person).path], "inbox list"))
            #expect(run.status == 0 && run.output.contains("No requests"), "\(person): \(run.output)")
        }
        try #require(Self.waitForDisconnections(server, count: 10), "the log:\n\(server.appLog)")

        let log = server.appLog
        let forged = log.contains("login=mallory address=9.9.9.9:1") || log.contains(#""login":"mallory address=9.9.9.9:1 \"address\""#)
        #expect(forged, "the forged address is in the log, in a login name")
        let found = try Self.matches(Self.logFile(server))
        #expect(found.hosts == expected.sorted(), "fail2ban-regex matched \(found.hosts), expected \(expected.sorted()):\n\(found.summary)\n\(log)")
        #expect(found.summary.contains(" \(expected.count) matched"), "\(found.summary)")

        // The events, with their fields, in this format.
        let lines = log.split(separator: "\n").map(String.init)
        if format == "json" {
            let objects = try lines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
            func events(_ name: String) -> [[String: Any]] { objects.filter { $0["event"] as? String == name } }
            #expect(events("connected").count == 10 && events("connected").allSatisfy { ($0["address"] as? String)?.hasPrefix("127.0.0.") == true })
            let authenticated = events("authenticated")
            #expect(authenticated.count == 3 && authenticated.allSatisfy { $0["address"] as? String != nil && $0["fingerprint"] as? String != nil })
            #expect(authenticated.compactMap { $0["person"] as? String }.sorted() == ["ana", "ana", "ben"])
            #expect(events("session started").count == 3)
            let ended = events("session ended")
            #expect(ended.count == 3 && ended.allSatisfy { ($0["duration"] as? String).flatMap(Double.init) != nil }, "\(ended)")
            #expect(events("key refused: not authorized").count == 5)
            #expect(events("authentication refused: too many tries").first?["address"] as? String != nil)
            #expect(objects.allSatisfy { ($0["time"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil })
        } else {
            #expect(!lines.contains { $0.hasPrefix("{") }, "text stays text")
            #expect(lines.filter { $0.contains(" session ended ") && $0.range(of: #" duration=\d+\.\d{3} "#, options: .regularExpression) != nil }.count == 3)
            #expect(lines.filter { $0.contains(" authenticated address=127.0.0.5:") && $0.contains(" person=") }.count == 3)
        }
    }

    /// A log of successful logins alone (sessions run, ended, disconnected) has nothing to ban.
    @Test(arguments: ["text", "json"])
    func aLogOfSuccessfulLoginsMatchesNothing(format: String) throws {
        let server = try Server(people: ["ana", "ben"], extra: ["--log-format", format])
        let keys = server.directory.appendingPathComponent("keys")
        for person in ["ana", "ben", "ana", "ben"] {
            let run = try Stress.shell(Self.ssh(server, from: "127.0.0.7", keys: [keys.appendingPathComponent(person).path], "inbox list"))
            #expect(run.status == 0, "\(person): \(run.output)")
        }
        try #require(Self.waitForDisconnections(server, count: 4), "the log:\n\(server.appLog)")
        let found = try Self.matches(Self.logFile(server))
        #expect(found.hosts.isEmpty && found.summary.contains(" 0 matched"), "\(found.summary)\n\(server.appLog)")
        #expect(found.summary.range(of: #"Lines: \d\d+ lines"#, options: .regularExpression) != nil, "fail2ban read the log: \(found.summary)")
    }
}
