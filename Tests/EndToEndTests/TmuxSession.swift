import Foundation
import TestSupport
import Testing

/// Drives the real `tabshell` binary inside a private tmux server: keys in, screen text out.
/// Each session has its own socket, so tests never touch the user's tmux.
final class TmuxSession {
    let socket: String
    let name = "t"
    let workDirectory: URL

    /// The built binary: `$TABSHELL_BIN`, else `.build/debug/tabshell` of this package.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["TABSHELL_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/tabshell")
    }

    /// Starts `script` (a shell command line) in a fresh tmux server at the given size.
    init(_ script: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws {
        socket = "tabshell-e2e-\(UUID().uuidString.prefix(8))"
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw HarnessError("tabshell binary not found at \(Self.binary.path): run `make test` (it builds first).")
        }
        let conf = workDirectory.appendingPathComponent("tmux.conf")
        try "set -g default-terminal tmux-256color\nset -g status off\nset -g escape-time 0\n".write(to: conf, atomically: true, encoding: .utf8)
        var env = [
            "TABSHELL": Self.binary.path, "XDG_DATA_HOME": workDirectory.appendingPathComponent("data").path,
            // Photo previews are cached here, not in the user's ~/.cache.
            "XDG_CACHE_HOME": workDirectory.appendingPathComponent("cache").path,
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        ]
        env.merge(environment) { $1 }
        let exports = env.sorted { $0.key < $1.key }.map { "export \($0.key)=\(Self.quote($0.value));" }.joined(separator: " ")
        try tmux([
            "-f", conf.path, "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)",
            "cd \(Self.quote(workDirectory.path)); \(exports) \(script); echo \"[exit $?]\"; sleep 600",
        ])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: workDirectory)
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    // MARK: - Input

    /// tmux key names: "Escape", "Enter", "C-d", "Left", "BTab", "q", …
    func press(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", "-t", name, key]) }
    }

    /// Types text literally, one key at a time as a person or a keyboard-wedge scanner would.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Sends text as a bracketed paste.
    func paste(_ text: String) throws {
        try tmux(["set-buffer", "-b", "p", text])
        try tmux(["paste-buffer", "-p", "-b", "p", "-t", name])
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Clicks with the left button at a zero-based cell, as a terminal reports it to ncurses
    /// with `tmux-256color`: X10 encoding, `ESC [ M` then button, column and row plus 32.
    func click(row: Int, column: Int) throws {
        func report(_ button: Int) -> String {
            "\u{1b}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + column))) + String(UnicodeScalar(UInt8(33 + row)))
        }
        try tmux(["send-keys", "-t", name, "-l", report(0) + report(3)])
    }

    // MARK: - Output

    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

    /// A tmux format value for the pane, e.g. "alternate_on", "cursor_flag", "pane_pid".
    func pane(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{\(format)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `condition` and has settled; returns the screen or throws
    /// with the last one.
    ///
    /// "Settled" means two captures 50 ms apart are the same: a capture can land between two of
    /// the terminal's writes of one frame (the new body drawn, the old tab bar still there), and a
    /// test must judge whole frames, not halves of two.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 10, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        var matched: String?
        while Date() < deadline {
            last = try screen()
            if condition(last) {
                if last == matched { return last }
                matched = last
            } else {
                matched = nil
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if let matched { return matched }
        throw HarnessError("timed out waiting for \(what); screen was:\n\(last)")
    }

    @discardableResult
    func waitFor(text: String, timeout: Double = 10) throws -> String {
        try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    @discardableResult
    func waitForGone(text: String, timeout: Double = 10) throws -> String {
        try waitFor("\"\(text)\" to disappear", timeout: timeout) { !$0.contains(text) }
    }

    // MARK: - tmux

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        // Output goes to a file, not a pipe: `new-session` forks the tmux server, which would
        // inherit a pipe's write end and keep it open for its whole life.
        let outputURL = workDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let status = try Self.spawnAndWait(["tmux", "-L", socket] + arguments, stdout: outputURL.path)
        guard status == 0 else {
            throw HarnessError("tmux \(arguments.first ?? "") failed with status \(status)")
        }
        return (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    /// posix_spawnp + waitpid: Foundation's Process can miss a quick child's exit on Linux.
    static func spawnAndWait(_ argv: [String], stdout: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of the test runner's: the tmux server this forks lives on and would hold
        // other tests' connections open (a server's close never reached its client).
        closeEveryOtherDescriptor(&actions)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArgs { free(pointer) } }
        var attributes = cleanSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArgs, environ)
        guard spawned == 0 else { throw HarnessError("cannot run \(argv[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw HarnessError("waitpid failed: \(errno)") }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// Spawn attributes for an empty signal mask and default dispositions. The test runner's
/// threads block most signals and the mask survives exec: without this, tmux, its shells and
/// tabshell inherited blocked SIGHUP and SIGTSTP, so `kill-server` left servers waiting on a
/// `sleep 600` that ignored the hang-up, and the app never saw a normal terminal's signals.
func cleanSignalAttributes() -> posix_spawnattr_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigfillset(&defaults)
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return attributes
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
