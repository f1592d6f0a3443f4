import Domain
import Foundation
import TestSupport
import Testing

/// The terminal disappears without a signal: tabshell runs with SIGHUP ignored (as under
/// `nohup`), so closing the pty's master side sends nothing it reacts to. It must keep SIGHUP
/// ignored, notice the dead tty (EOF / EIO / POLLHUP) and exit within 2 s without spinning.
///
/// The pty is driven by a small Python script (openpty, fork, setsid, TIOCSCTTY), so no tmux
/// or shell sits between the test and the app.
@Suite(.serialized, .tags(.e2e))
struct TerminalGoneEndToEndTests {
    static let driver = #"""
        import fcntl, json, os, select, signal, struct, sys, termios, time
        binary, db = sys.argv[1], sys.argv[2]
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        pid = os.fork()
        if pid == 0:
            os.close(master)
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            if slave > 2:
                os.close(slave)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8")
            os.execve(binary, [binary, "--db", db], env)
        os.close(slave)

        def ticks(pid):
            try:
                with open("/proc/%d/stat" % pid) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                return int(fields[11]) + int(fields[12])
            except OSError:
                return None

        out = b""
        deadline = time.monotonic() + 30
        while b"Settings" not in out and time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 0.1)
            if r:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
        drawn = b"Settings" in out

        # SIGHUP was ignored when it started: it must stay ignored. A key sent after the signal
        # is the marker: once its answer (the help sheet) is drawn, the signal was delivered and
        # the app still reads its terminal.
        os.kill(pid, signal.SIGHUP)
        os.write(master, b"?")
        deadline = time.monotonic() + 10
        while b"skips" not in out and time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 0.1)
            if r:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
        reaped, hup_status = os.waitpid(pid, os.WNOHANG)
        survived_hup = reaped == 0
        if not survived_hup:
            print(json.dumps({"drawn": drawn, "survived_hup": False, "elapsed": None,
                              "exit": os.WEXITSTATUS(hup_status) if os.WIFEXITED(hup_status) else 128 + os.WTERMSIG(hup_status),
                              "cpu_after_close": 0, "bytes": len(out)}))
            sys.exit(0)

        before = ticks(pid) or 0
        last = before
        start = time.monotonic()
        os.close(master)
        elapsed, status = None, None
        while time.monotonic() - start < 10:
            p, st = os.waitpid(pid, os.WNOHANG)
            if p:
                elapsed, status = time.monotonic() - start, st
                break
            t = ticks(pid)
            if t is not None:
                last = t
            time.sleep(0.005)
        if elapsed is None:
            last = ticks(pid) or last
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        hz = os.sysconf("SC_CLK_TCK")
        print(json.dumps({
            "drawn": drawn, "survived_hup": survived_hup, "elapsed": elapsed,
            "exit": None if status is None else (os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)),
            "cpu_after_close": (last - before) / hz, "bytes": len(out),
        }))
        """#

    struct Figures: Decodable {
        let drawn: Bool
        let survivedHup: Bool
        let elapsed: Double?
        let exit: Int?
        let cpuAfterClose: Double

        enum CodingKeys: String, CodingKey {
            case drawn, elapsed, exit, bytes
            case survivedHup = "survived_hup"
            case cpuAfterClose = "cpu_after_close"
        }
        let bytes: Int
    }

    @Test func ptyClosedWithHangupIgnoredExitsWithoutSpinning() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-gone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("driver.py")
        try Self.driver.write(to: script, atomically: true, encoding: .utf8)
        let db = directory.appendingPathComponent("gone.sqlite")

        let run = try Stress.shell("python3 \(TmuxSession.quote(script.path)) \(TmuxSession.quote(TmuxSession.binary.path)) \(TmuxSession.quote(db.path))")
        let json = try #require(run.output.split(separator: "\n").last, "driver printed nothing: \(run.output)")
        let figures = try JSONDecoder().decode(Figures.self, from: Data(json.utf8))
        print(
            String(
                format: "terminal gone (SIGHUP ignored, master closed): drew %d bytes; ignored SIGHUP: %@; exit after %@ with status %@; CPU after close %.2fs",
                figures.bytes, figures.survivedHup ? "yes" : "no", Stress.format(figures.elapsed),
                figures.exit.map(String.init) ?? "-", figures.cpuAfterClose))

        #expect(figures.drawn, "the app never drew its tab bar")
        #expect(figures.survivedHup, "SIGHUP was ignored when tabshell started (nohup): it must stay ignored")
        #expect((figures.elapsed ?? 99) <= 2.0, "the app must exit within 2 s of the terminal going away")
        #expect(figures.exit == 129, "a lost terminal exits with status 129")
        // Spinning on a dead tty for up to 2 s would burn ~2 s of CPU; an idle exit uses a few ticks.
        #expect(figures.cpuAfterClose < 0.5, "CPU spent after the terminal went away")
        let log = (try? String(contentsOf: directory.appendingPathComponent("tabshell.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("terminal gone"), "the log says why it stopped")
    }
}
