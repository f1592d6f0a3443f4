import Foundation
import TabShell
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// Upgrading `tabshell serve` while people work (docs/operating.md): SIGUSR2 starts the binary
/// installed now at the server's path on the same listening socket; the old server keeps its
/// sessions until they end. Real binary, real OpenSSH client in tmux, a real systemd-style
/// notification socket.
@Suite(.serialized, .tags(.e2e))
struct ServeUpgradeEndToEndTests {
    typealias Server = ServeEndToEndTests.Server

    /// A folder with `bin/tabshell`, a link to the built binary: the "installed" path a server
    /// is started by, which a test then replaces.
    final class Installation {
        let folder: URL
        let path: String
        let mark: String

        init() throws {
            folder = URL(fileURLWithPath: "/tmp/tabshell-upgrade-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
            path = folder.appendingPathComponent("bin/tabshell").path
            mark = folder.appendingPathComponent("new-binary-ran").path
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: TmuxSession.binary.path)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Installs a "new build" at the path: a script that leaves a mark and runs the binary
        /// (or, `starts: false`, one that exits at once as a broken build would), put in place by
        /// a rename as a package manager does.
        func installNewBuild(starts: Bool = true) throws {
            let body =
                starts
                ? "#!/bin/sh\necho \"$$\" >> \(TmuxSession.quote(mark))\nexec \(TmuxSession.quote(TmuxSession.binary.path)) \"$@\"\n"
                : "#!/bin/sh\necho 'this build is broken' >&2\nexit 3\n"
            let staged = folder.appendingPathComponent("bin/tabshell.new").path
            try body.write(toFile: staged, atomically: true, encoding: .utf8)
            chmod(staged, 0o755)
            guard rename(staged, path) == 0 else { throw HarnessError("rename: \(String(cString: strerror(errno)))") }
        }
    }

    /// A datagram socket standing in for systemd's NOTIFY_SOCKET: what the server tells its manager.
    final class NotifySocket {
        let path: String
        private let fd: CInt
        private(set) var received: [String] = []

        init(in folder: URL) throws {
            path = folder.appendingPathComponent("notify").path
            fd = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0 else { throw HarnessError("notify socket: \(String(cString: strerror(errno)))") }
        }

        deinit { close(fd) }

        /// Waits (up to `timeout` s, a bound, not a speed) for a message satisfying `condition`.
        func waitFor(timeout: Double = 60, _ condition: (String) -> Bool) async -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(fd, &buffer, buffer.count, CInt(MSG_DONTWAIT))
                if count > 0 {
                    let message = String(decoding: buffer[0..<count], as: UTF8.self)
                    received.append(message)
                    if condition(message) { return message }
                    continue
                }
                if Date() >= deadline { return nil }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The pid the old server handed over to, from its output.
    static func successor(of server: Server, timeout: Double = 90) async throws -> pid_t {
        var found: pid_t?
        _ = await ServeEndToEndTests.poll(timeout: timeout) {
            let text = server.serverLog
            if let range = text.range(of: #"Handed over to pid \d+"#, options: .regularExpression) {
                found = pid_t(text[range].split(separator: " ").last ?? "")
            }
            return found != nil || text.contains("Upgrade failed")
        }
        guard let found else { throw HarnessError("no hand-over; the server said:\n\(server.serverLog)") }
        return found
    }

    /// What each open descriptor of `pid` is (`socket:[123]`, `/dev/pts/4`, …), from /proc.
    static func descriptors(of pid: pid_t) -> Set<String> {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") })
    }

    static func stop(_ pid: pid_t) async {
        kill(pid, SIGTERM)
        _ = await ServeEndToEndTests.poll(timeout: 30) { kill(pid, 0) != 0 }
    }

    /// The apps of `person` running under `server` (any process below it).
    static func apps(of person: String, under server: pid_t) -> [Int32] {
        Stress.pids(commandLineContaining: "/people/\(person) ").filter { Stress.descends($0, from: server) }
    }

    @Test func anUpgradeRunsTheInstalledBuildOnTheSameSocketAndDropsNoSession() async throws {
        let installation = try Installation()
        let notify = try NotifySocket(in: installation.folder)
        let server = try Server(binary: installation.path, environment: ["NOTIFY_SOCKET=\(notify.path)"])
        let ready = await notify.waitFor { $0.contains("READY=1") }
        #expect(ready?.contains("MAINPID=\(server.pid)") == true, "the first server tells its manager it is ready: \(notify.received)")

        let ana = try await server.session("ana")
        try ana.press("2")
        try await ana.waitUntil("the picker") { $0.contains("What do you want to capture?") }
        try ana.press("n")
        try await ana.waitUntil("the note") { $0.contains("Capture · Note") }
        try ana.type("typed before the upgrade")
        try await ana.waitUntil(text: "typed before the upgrade")

        try installation.installNewBuild()
        kill(server.pid, SIGUSR2)
        let successor = try await Self.successor(of: server)
        defer { kill(successor, SIGTERM) }
        let marks = (try? String(contentsOfFile: installation.mark, encoding: .utf8)) ?? ""
        #expect(marks.split(separator: "\n").contains("\(successor)"), "the build installed now runs as the new server")
        // The new server got the listening socket and nothing else of the old one's: not ana's
        // connection (which would then outlive her session), not her terminal, not any socket.
        let shared = Self.descriptors(of: server.pid).intersection(Self.descriptors(of: successor)).filter { $0.hasPrefix("socket:") }
        #expect(shared.isEmpty, "sockets both servers hold after the hand-over: \(shared)")
        #expect(!Self.descriptors(of: successor).contains { $0.hasPrefix("/dev/pts") || $0 == "/dev/ptmx" })
        let told = await notify.waitFor { $0.contains("MAINPID=\(successor)") }
        #expect(told?.contains("READY=1") == true, "the new server tells the manager it is the service now: \(notify.received)")

        // ana's session, on the old server, goes on as if nothing happened.
        try ana.type(" and after it")
        try await ana.waitUntil(text: "typed before the upgrade and after it")
        try ana.press("C-d")
        try await ana.waitUntil("back on the tabs") { $0.contains("[ Inbox") }

        // A new connection is the new server's.
        let ben = try await server.session("ben")
        #expect(!Self.apps(of: "ben", under: successor).isEmpty, "ben's app runs under the new server")

        // ana leaves: the old server has nothing left and exits; the new one goes on.
        try ana.press("q")
        #expect(try await ServeEndToEndTests.exitCode(ana) == 0)
        let oldGone = await ServeEndToEndTests.poll(timeout: 60) { !Stress.isAlive(server.pid) }
        #expect(oldGone, "the old server exits once its last session has ended:\n\(server.serverLog)")
        try await ServeEndToEndTests.captureNote("after the old server left", in: ben)
        try ben.press("q")
        #expect(try await ServeEndToEndTests.exitCode(ben) == 0)
        await Self.stop(successor)

        let notes = try AppDatabase.open(at: server.database).historyPage(.init(start: 0, count: 5)).rows.map(\.summary)
        #expect(notes.contains { $0.contains("typed before the upgrade and after it") }, "\(notes)")
        #expect(notes.contains { $0.contains("after the old server left") }, "\(notes)")
    }

    @Test func aConnectionDroppedAfterTheUpgradeComesBackOnTheNewServer() async throws {
        let installation = try Installation()
        let server = try Server(binary: installation.path)
        let first = try await server.session("ana")
        try first.press("2")
        try await first.waitUntil("the picker") { $0.contains("What do you want to capture?") }
        try first.press("n")
        try await first.waitUntil("the note") { $0.contains("Capture · Note") }
        try first.type("half a note")
        try await first.waitUntil(text: "half a note")
        kill(server.pid, SIGUSR2)
        let successor = try await Self.successor(of: server)
        defer { kill(successor, SIGTERM) }

        // ana's connection to the old server drops (her ssh is killed): her app there ends,
        // keeping what it had, and she comes back — to the new server — within the window.
        let appBefore = try #require(Self.apps(of: "ana", under: server.pid).first, "no app for ana on the old server")
        kill(try TabShellEndToEndTests.appPID(first), SIGKILL)
        #expect(Stress.waitGone(appBefore, timeout: 30).elapsed != nil, "the app of a dropped connection ends")
        let second = try server.connect("ana")
        let back = try await second.waitUntil("the note as it was", timeout: 30) { $0.contains("Capture · Note") && $0.contains("half a note") }
        #expect(back.contains("Welcome back"), "\(back)")
        #expect(!Self.apps(of: "ana", under: successor).isEmpty, "the session came back on the new server")
        try second.press("C-d")
        try await second.waitUntil("back on the tabs") { $0.contains("[ Inbox") }
        try second.press("q")
        #expect(try await ServeEndToEndTests.exitCode(second) == 0)
        // The old server had nothing left once ana's connection was gone.
        #expect(await ServeEndToEndTests.poll(timeout: 60) { !Stress.isAlive(server.pid) })
        await Self.stop(successor)
        let notes = try AppDatabase.open(at: server.database).historyPage(.init(start: 0, count: 5)).rows.map(\.summary)
        #expect(notes.contains { $0.contains("half a note") }, "\(notes)")
    }

    @Test func aBuildThatCannotStartChangesNothing() async throws {
        let installation = try Installation()
        let server = try Server(binary: installation.path)
        try installation.installNewBuild(starts: false)
        kill(server.pid, SIGUSR2)
        _ = await ServeEndToEndTests.poll(timeout: 90) { server.serverLog.contains("Upgrade failed") }
        #expect(server.serverLog.contains("Upgrade failed: the new server"), "\(server.serverLog)")
        #expect(!server.serverLog.contains("Handed over"))
        // Still listening, still the one serving.
        let ana = try await server.session("ana")
        #expect(!Self.apps(of: "ana", under: server.pid).isEmpty)
        try ana.press("q")
        #expect(try await ServeEndToEndTests.exitCode(ana) == 0)
    }

    @Test func theDrainLimitEndsWhatIsLeftSayingWhy() async throws {
        let installation = try Installation()
        let server = try Server(extra: ["--drain-limit", "2s"], binary: installation.path)
        let ana = try await server.session("ana")
        kill(server.pid, SIGUSR2)
        let successor = try await Self.successor(of: server)
        defer { kill(successor, SIGTERM) }
        #expect(try await ServeEndToEndTests.exitCode(ana) == 129, "hung up (128 + SIGHUP) at the drain limit")
        // The line may wrap at the terminal's width.
        #expect(try ana.screen().replacingOccurrences(of: "\n", with: "").contains("reached its drain limit: connect again"))
        let oldGone = await ServeEndToEndTests.poll(timeout: 60) { !Stress.isAlive(server.pid) }
        #expect(oldGone)
        // ana comes back, to the new server.
        let again = try await server.session("ana")
        #expect(!Self.apps(of: "ana", under: successor).isEmpty)
        try again.press("q")
        #expect(try await ServeEndToEndTests.exitCode(again) == 0)
        await Self.stop(successor)
    }

    @Test func stoppingTheNewServerStopsTheOldOneItsSessionsToo() async throws {
        let installation = try Installation()
        let server = try Server(binary: installation.path)
        let ana = try await server.session("ana")
        kill(server.pid, SIGUSR2)
        let successor = try await Self.successor(of: server)
        defer { kill(successor, SIGTERM) }
        // A service stop reaches the new server alone (KillMode=mixed); the old one follows.
        kill(successor, SIGTERM)
        #expect(try await ServeEndToEndTests.exitCode(ana) == 129)
        #expect(try ana.screen().contains("tabshell: the server is stopping."))
        let bothGone = await ServeEndToEndTests.poll(timeout: 60) { !Stress.isAlive(server.pid) && kill(successor, 0) != 0 }
        #expect(bothGone, "\(server.serverLog)")
    }
}
