import Domain
import Foundation
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// tabshell over a real OpenSSH connection on loopback: a throw-away sshd (own host key, own
/// authorized key, random port, foreground, started and stopped here) and `ssh -tt` inside tmux.
@Suite(.serialized, .tags(.e2e))
struct SSHEndToEndTests {
    /// A private sshd on 127.0.0.1; stopped when released.
    final class Server {
        let directory: URL
        let port: Int
        let pid: pid_t
        let clientKey: URL

        init() throws {
            let sshd = "/usr/sbin/sshd"
            guard FileManager.default.isExecutableFile(atPath: sshd) else {
                throw HarnessError("\(sshd) is missing: install openssh-server (scripts/install-deps does).")
            }
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-sshd-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let asRoot = getuid() == 0
            if asRoot {
                // sshd's privilege-separation directory; a fresh container may not have it.
                try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            }
            clientKey = directory.appendingPathComponent("client_key")
            for key in ["host_key", "client_key"] {
                let made = try Stress.shell("ssh-keygen -q -t ed25519 -N '' -f \(TmuxSession.quote(directory.appendingPathComponent(key).path))")
                guard made.status == 0 else { throw HarnessError("ssh-keygen failed: \(made.output)") }
            }
            try FileManager.default.copyItem(at: directory.appendingPathComponent("client_key.pub"), to: directory.appendingPathComponent("authorized_keys"))

            var started: (port: Int, pid: pid_t)?
            var lastLog = ""
            for _ in 0..<5 where started == nil {
                let port = Int.random(in: 20000...60000)
                let config = directory.appendingPathComponent("sshd_config")
                try """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(directory.path)/host_key
                PidFile \(directory.path)/sshd.pid
                AuthorizedKeysFile \(directory.path)/authorized_keys
                UsePAM no
                StrictModes no
                PermitRootLogin \(asRoot ? "yes" : "no")
                PubkeyAuthentication yes
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PrintMotd no
                PrintLastLog no
                LogLevel INFO

                """.write(to: config, atomically: true, encoding: .utf8)
                let log = directory.appendingPathComponent("sshd-\(port).log")
                let pid = try Stress.spawn([sshd, "-D", "-e", "-f", config.path], log: log.path)
                let listening = Stress.poll(timeout: 10) {
                    lastLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    return lastLog.contains("Server listening") || !Stress.isAlive(pid)
                }
                if listening && Stress.isAlive(pid) && lastLog.contains("Server listening") {
                    started = (port, pid)
                } else {
                    Stress.stop(pid)
                }
            }
            guard let started else { throw HarnessError("sshd did not start: \(lastLog)") }
            port = started.port
            pid = started.pid
        }

        deinit {
            Stress.stop(pid)
            try? FileManager.default.removeItem(at: directory)
        }

        /// The client command that runs `remote` on this server with a forced tty.
        func ssh(_ remote: String) -> String {
            "ssh -tt -F /dev/null -p \(port) -i \(TmuxSession.quote(clientKey.path)) -o IdentitiesOnly=yes -o BatchMode=yes "
                + "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR 127.0.0.1 \(TmuxSession.quote(remote))"
        }
    }

    /// Runs `ssh` inside tmux in a shell that records stty before/after and the exit status.
    /// (An explicit `</dev/tty`: a background job's stdin is /dev/null otherwise.)
    static func launchSSH(_ server: Server, database: URL) throws -> TmuxSession {
        let remote = "env LC_ALL=C.UTF-8 TERM=tmux-256color \(TmuxSession.quote(TmuxSession.binary.path)) --db \(TmuxSession.quote(database.path))"
        let script =
            "\(TmuxSession.survivesKeyboardSignals) stty -g > stty.before; \(server.ssh(remote)) </dev/tty & \(TmuxSession.waitForApp) stty -g > stty.after; echo \"[app exit $code]\""
        return try TmuxSession(script)
    }

    /// The tabshell process sshd started for `database` (not the ssh client, whose command line also names it).
    static func serverPID(database: URL) -> Int32? {
        Stress.pids(commandLineContaining: database.path).first { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("tabshell")
        }
    }

    @Test func captureABarcodeOverSSH() throws {
        let server = try Server()
        let database = server.directory.appendingPathComponent("over-ssh.sqlite")
        let start = Date()
        let s = try Self.launchSSH(server, database: database)
        try s.waitFor("the tab bar over ssh", timeout: 30) { $0.contains("[ Inbox") && $0.contains("Settings") }
        let connected = Date().timeIntervalSince(start)
        try s.press("3")
        try s.waitFor("History") { $0.contains("[ History") && $0.contains("Settings") }
        try s.press("4")
        try s.waitFor("Settings") { $0.contains("[ Settings") && $0.contains("Require an Inbox request") }
        try s.press("2", "b")
        try s.waitFor("barcode entry") { $0.contains("EAN-13") && !$0.contains("[ Settings") }
        try s.type("4006381333931")
        try s.press("Enter")
        try s.waitFor("review") { $0.contains("4006381333931") && $0.contains("Enter or Ctrl-D") }
        try s.press("C-d")
        try s.waitFor("back on the tab bar") { $0.contains("[ Settings") || $0.contains("[ History") }
        try s.press("3")
        let history = try s.waitFor("the capture in History") { $0.contains("[ History") && $0.contains("4006381333931") }
        #expect(history.contains("EAN-13"))
        let journey = Date().timeIntervalSince(start)
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0, "ssh passes tabshell's exit status 0 through")
        #expect(try AppDatabase.open(at: database).historyCount() == 1)
        // Without -t there is no terminal: one sentence on stderr, non-zero, nothing drawn.
        let noTTY = try Stress.shell(
            server.ssh("\(TmuxSession.quote(TmuxSession.binary.path)) --db \(TmuxSession.quote(database.path))")
                .replacingOccurrences(of: "ssh -tt ", with: "ssh -T ") + " </dev/null")
        #expect(noTTY.status != 0, "without a terminal tabshell must fail")
        #expect(noTTY.output.contains("needs a terminal"), "one sentence saying why: \(noTTY.output)")
        #expect(!noTTY.output.contains("\u{1B}"), "no escape sequences without a terminal")
        print("ssh without -t: exit \(noTTY.status): \(noTTY.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        print(String(format: "ssh journey: port %d, tab bar after %.2fs, capture in History after %.2fs, quit exit 0", server.port, connected, journey))
    }

    @Test func killedClientMidCaptureEndsTheServerSideAppAndKeepsTheDraft() throws {
        let server = try Server()
        let database = server.directory.appendingPathComponent("dropped-\(UUID().uuidString.prefix(6)).sqlite")
        let s = try Self.launchSSH(server, database: database)
        let photo = try s.writePNG("staged.png")
        try s.waitFor("the tab bar over ssh", timeout: 30) { $0.contains("[ Inbox") && $0.contains("Settings") }
        try s.press("2", "p")
        try s.waitFor("photos phase") { $0.contains("Capture · Photos") && !$0.contains("[ Inbox") }
        try s.type(photo.path)
        try s.press("Enter")
        try s.waitFor("the staged photo") { $0.contains("10×10") }
        let serverPID = try #require(Self.serverPID(database: database), "no server-side tabshell for \(database.path)")
        let client = try TabShellEndToEndTests.appPID(s)

        kill(client, SIGKILL)
        let gone = Stress.waitGone(serverPID, timeout: 10)
        print(
            String(
                format: "ssh client SIGKILLed mid-capture: server-side tabshell (pid %d) gone after %@, CPU meanwhile %.2fs",
                serverPID, Stress.format(gone.elapsed), gone.cpuSeconds))
        #expect((gone.elapsed ?? 99) <= 2.0, "the server-side app must exit within 2 s of the link dropping")
        #expect(gone.cpuSeconds < 0.5, "no CPU spin on the dead terminal")
        try s.waitFor(text: "[app exit")

        // The next start offers the photo back, or the sweep removed it; never a half state.
        let t = try TabShellEndToEndTests.launch("--db \(TmuxSession.quote(database.path))")
        let next = try t.waitFor("the next start") {
            ($0.contains("Resume the unfinished capture?") || $0.contains("[ Inbox")) && $0.contains("Settings")
        }
        if next.contains("Resume the unfinished capture?") {
            try t.press("r")
            try t.waitFor("the resumed photo") { $0.contains("10×10") && $0.contains("Capture · Photos") }
            try t.press("C-d")
            try t.waitFor("saved") { $0.contains("[ Inbox") }
            print("ssh client SIGKILLed: next start offered the draft; resumed and saved it")
            #expect(try AppDatabase.open(at: database).historyCount() == 1)
        } else {
            let staging = database.path + ".files/staging"
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).isEmpty, "no offer, so nothing may stay staged")
            print("ssh client SIGKILLed: next start swept the draft")
        }
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
    }
}
