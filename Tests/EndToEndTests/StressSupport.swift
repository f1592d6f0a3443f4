import Domain
import Foundation
import TestSupport
import Testing

/// Shared helpers for the stress and fault end-to-end tests: counts that CI keeps
/// small and `make stress` makes large, process liveness and CPU from /proc, and the screens
/// every test visits.
enum Stress {
    // MARK: - Sizes

    /// An integer from the environment (`make stress` sets the long values), else `ci`.
    static func count(_ variable: String, ci: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment[variable], let value = Int(text), value > 0 else { return ci }
        return value
    }

    /// A seed from `TABSHELL_STRESS_SEED`, else a fresh one (printed by each test so a failure can be replayed).
    static func seed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["TABSHELL_STRESS_SEED"], let value = UInt64(text) { return value }
        return UInt64.random(in: 1...UInt64(UInt32.max))
    }

    // MARK: - Processes

    /// Clock ticks per second for /proc's utime and stime.
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// A process's state letter and its user + system CPU time in ticks, or nil when it is gone.
    static func processSample(_ pid: Int32) -> (state: Character, cpuTicks: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is field 3, utime 14, stime 15 (1-based, whole line).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let state = fields[0].first,
            let user = Int(fields[11]), let system = Int(fields[12])
        else { return nil }
        return (state, user + system)
    }

    /// True while the process exists and is not a zombie.
    static func isAlive(_ pid: Int32) -> Bool {
        guard let sample = processSample(pid) else { return false }
        return sample.state != "Z" && sample.state != "X"
    }

    /// Polls until `pid` is gone (or a zombie); returns seconds waited and CPU seconds it used
    /// meanwhile (nil elapsed when it outlived `timeout`).
    static func waitGone(_ pid: Int32, timeout: Double) -> (elapsed: Double?, cpuSeconds: Double) {
        let start = Date()
        let firstTicks = processSample(pid)?.cpuTicks ?? 0
        var lastTicks = firstTicks
        while Date().timeIntervalSince(start) < timeout {
            guard let sample = processSample(pid), sample.state != "Z", sample.state != "X" else {
                if let sample = processSample(pid) { lastTicks = sample.cpuTicks }
                return (Date().timeIntervalSince(start), Double(lastTicks - firstTicks) / ticksPerSecond)
            }
            lastTicks = sample.cpuTicks
            usleep(5_000)
        }
        return (nil, Double(lastTicks - firstTicks) / ticksPerSecond)
    }

    /// Runs a command line with `sh -c`, returning its exit status and output (stdout and stderr).
    @discardableResult
    static func shell(_ command: String, in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-sh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let line = (directory.map { "cd \(TmuxSession.quote($0.path)) && " } ?? "") + "{ \(command) ; } 2>&1"
        let status = try TmuxSession.spawnAndWait(["sh", "-c", line], stdout: output.path)
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// Starts `argv` in the background (stdin /dev/null, stdout and stderr to `log`); the
    /// caller stops it with ``stop(_:)``.
    static func spawn(_ argv: [String], log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test runner's (other tests' sockets, terminals): a child that
        // outlives its test would hold them open.
        closeEveryOtherDescriptor(&actions)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArgs { free(pointer) } }
        var attributes = cleanSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, environ)
        guard spawned == 0 else { throw HarnessError("cannot run \(argv[0]): error \(spawned)") }
        return pid
    }

    /// SIGTERM, then SIGKILL after 3 s, and reaps the child.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(3)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return
            }
            usleep(10_000)
        }
    }

    /// The pids whose command line contains `text` (like `pgrep -f`, without matching itself).
    static func pids(commandLineContaining text: String) -> [Int32] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard pid != me, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(text)
        }
    }

    /// Whether `pid` is `ancestor` or runs under it (its parent chain in /proc reaches it): tests
    /// running side by side each start a server, and only their own server's children are theirs.
    static func descends(_ pid: Int32, from ancestor: Int32) -> Bool {
        var current = pid
        for _ in 0..<64 {
            if current == ancestor { return true }
            guard current > 1, let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After the command's name in parentheses: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { return false }
            current = parent
        }
        return false
    }

    /// Polls `condition` every 20 ms up to `timeout` seconds.
    static func poll(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }

    static func format(_ seconds: Double?) -> String {
        guard let seconds else { return "  >lim" }
        return String(format: "%5.0fms", seconds * 1000)
    }
}

/// A screen of the app a test can drive to with keys, and recognise when it is fully drawn.
enum AppScreen: String, CaseIterable, CustomStringConvertible {
    case inbox, history, settings, search, help, picker, barcode, photos, review

    var description: String { rawValue }

    /// Whether this screen is inside capture mode (a draft may be kept on exit).
    var isCapture: Bool { [.picker, .barcode, .photos, .review].contains(self) }

    /// Drives a freshly started app (on Inbox, showing the tab bar) to this screen and waits for
    /// the whole frame. `photo` is a PNG file the photos phase stages.
    func open(in session: TmuxSession, photo: URL) throws {
        try session.waitFor(text: "[ Inbox")
        switch self {
        case .inbox:
            try session.waitFor("Inbox frame") { $0.contains("[ Inbox") && $0.contains("Settings") }
        case .history:
            try session.press("3")
            try session.waitFor("History frame") { $0.contains("[ History") && $0.contains("Settings") }
        case .settings:
            try session.press("4")
            try session.waitFor("Settings frame") { $0.contains("[ Settings") && $0.contains("Require an Inbox request") }
        case .search:
            try session.press("/")
            try session.waitFor("search sheet") { $0.contains("Type to find codes") }
        case .help:
            try session.press("?")
            try session.waitFor("help sheet") { $0.contains("Next tab") }
        case .picker:
            try session.press("2")
            try session.waitFor("kind picker") { $0.contains("Capture") && $0.contains("Barcode") && !$0.contains("[ Inbox") }
        case .barcode:
            try session.press("2", "b")
            try session.waitFor("barcode entry") { $0.contains("EAN-13") && !$0.contains("[ Inbox") }
        case .photos:
            try session.press("2", "p")
            try session.waitFor("photos phase") { $0.contains("Capture · Photos") && !$0.contains("[ Inbox") }
            try session.type(photo.path)
            try session.press("Enter")
            try session.waitFor("the staged photo") { $0.contains("10×10") && $0.contains("Capture · Photos") }
        case .review:
            try session.press("2", "b")
            try session.waitFor("barcode entry") { $0.contains("EAN-13") }
            try session.type("96385074")
            try session.press("Enter")
            try session.waitFor("review") { $0.contains("96385074") && $0.contains("Enter or Ctrl-D") }
        }
    }
}

extension TmuxSession {
    /// Writes a 10x10 PNG into the work directory and returns its URL.
    func writePNG(_ name: String = "photo.png") throws -> URL {
        let url = workDirectory.appendingPathComponent(name)
        try PhotoCaptureEndToEndTests.png(width: 10, height: 10).write(to: url)
        return url
    }

    /// The staging folder of the session's default database.
    var stagingDirectory: URL {
        workDirectory.appendingPathComponent("data/tabshell/tabshell.sqlite.files/staging")
    }

    /// Every file under the staging folder, as "folder/name".
    func stagedFiles() -> [String] {
        let fm = FileManager.default
        let folders = (try? fm.contentsOfDirectory(atPath: stagingDirectory.path)) ?? []
        return folders.flatMap { folder in
            ((try? fm.contentsOfDirectory(atPath: stagingDirectory.appendingPathComponent(folder).path)) ?? []).map { "\(folder)/\($0)" }
        }
    }
}

extension TmuxSession {
    /// Shell text for launch scripts: the wrapping `sh` catches (not ignores) Ctrl-C, Ctrl-\\ and
    /// Ctrl-Z, which the terminal sends to its whole process group, so it lives on to record
    /// the exit status. Children still start with default dispositions for them.
    static let survivesKeyboardSignals = "trap : INT QUIT TSTP;"

    /// Shell text that follows `app &`: records the pid and waits until the app has really
    /// exited (a trapped signal interrupts `wait`), leaving its status in `$code`.
    static let waitForApp = "pid=$!; echo $pid > app.pid; while :; do wait $pid; code=$?; kill -0 $pid 2>/dev/null || break; done;"

    /// Like `TabShellEndToEndTests.launch`, but the app starts only once ``go()`` is called,
    /// so a test can first record the pane's output; stderr goes to `stderr.txt`.
    static func gatedLaunch(_ arguments: String = "", columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws -> TmuxSession {
        let script =
            "while [ ! -e go ]; do sleep 0.02; done; \(TmuxSession.survivesKeyboardSignals) stty -g > stty.before; \"$TABSHELL\" \(arguments) 2> stderr.txt & \(TmuxSession.waitForApp) stty -g > stty.after; echo \"[app exit $code]\""
        return try TmuxSession(script, columns: columns, rows: rows, environment: environment)
    }

    func go() throws {
        try Data().write(to: workDirectory.appendingPathComponent("go"))
    }

    /// Appends every byte the pane's program writes to `file` (tmux pipe-pane).
    func recordOutput(to file: URL) throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        try tmux(["pipe-pane", "-o", "-t", name, "cat >> \(Self.quote(file.path))"])
    }

    /// Writes straight to the pane's tty, as another program sharing the terminal would.
    func scribble(_ text: String) throws {
        let tty = try pane("pane_tty")
        guard let handle = FileHandle(forWritingAtPath: tty) else { throw HarnessError("cannot open \(tty)") }
        handle.write(Data(text.utf8))
        try handle.close()
    }

    func stopRecording() throws {
        try tmux(["pipe-pane", "-t", name])
    }
}
