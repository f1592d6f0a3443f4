import CPty
import Foundation

/// The real `tabshell` binary on a pseudo-terminal of its own, with the test playing the
/// terminal: it answers the graphics queries the way a chosen terminal would (sixel, kitty, or
/// none) and keeps every byte the app writes, so a test can look for the pictures' escape
/// sequences — which tmux would swallow or redraw — and at what was written around them.
final class FakeTerminal: @unchecked Sendable {
    /// What the played terminal answers to the graphics queries (tabshell's `TerminalQuery`).
    enum Answers {
        /// xterm as a VT340 (`xterm -ti vt340`): XTVERSION, DA2, a 10 × 20 cell, sixel in DA1.
        case sixel
        /// kitty: the graphics query's OK, its name, a 10 × 20 cell, DA1 without sixel.
        case kitty
        /// A VT220-like terminal that answers only DA1, without sixel.
        case primaryAttributesOnly
        /// A terminal that answers nothing (the test may answer later with `type(_:)`).
        case silent

        var text: String {
            switch self {
            case .sixel: "\u{1B}P>|XTerm(390)\u{1B}\\\u{1B}[>41;390;0c\u{1B}[6;20;10t\u{1B}[?63;1;2;4;6;9;15;22;29c"
            case .kitty: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[>1;4000;35c\u{1B}[6;20;10t\u{1B}[?62;c"
            case .primaryAttributesOnly: "\u{1B}[?62;1;6;22c"
            case .silent: ""
            }
        }
    }

    /// The end of tabshell's query: primary device attributes.
    static let queryEnd = "\u{1B}[c"

    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var readerDone = false
    let pid: pid_t
    private let master: Int32
    let workDirectory: URL

    init(answers: Answers, columns: UInt16 = 80, rows: UInt16 = 24, environment: [String: String] = [:]) throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-pty-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        let binary = TmuxSession.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw HarnessError("tabshell binary not found at \(binary.path): run `make test` (it builds first).")
        }
        var env = [
            "PATH": "/usr/bin:/bin", "HOME": workDirectory.path, "TERM": "xterm-256color",
            "XDG_DATA_HOME": workDirectory.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": workDirectory.appendingPathComponent("cache").path,
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        ]
        env.merge(environment) { $1 }
        let cArgv = [strdup(binary.path)] + [nil]
        let cEnvp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArgv { free(pointer) }
            for pointer in cEnvp { free(pointer) }
        }
        var master: Int32 = -1
        var pid: pid_t = 0
        let error = cpty_spawn_pty(binary.path, cArgv, cEnvp, workDirectory.path, columns, rows, &master, &pid)
        guard error == 0 else { throw HarnessError("cannot start tabshell on a pty: errno \(error)") }
        self.master = master
        self.pid = pid
        let thread = Thread { [self] in readUntilClosed(answering: answers) }
        thread.start()
    }

    /// Reads everything the app writes; answers the query once, the moment its end arrives.
    private func readUntilClosed(answering answers: Answers) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var answered = false
        let queryEnd = Array(Self.queryEnd.utf8)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                let all = lock.withLock {
                    bytes.append(contentsOf: buffer[0..<count])
                    return answered ? [] : bytes
                }
                if !answered, all.firstRange(of: queryEnd) != nil {
                    answered = true
                    if !answers.text.isEmpty { write(answers.text) }
                }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        lock.withLock { readerDone = true }
    }

    /// How many bytes the app has written so far: a mark for `output(since:)`.
    var mark: Int { lock.withLock { bytes.count } }

    /// What the app wrote after `mark`.
    func output(since mark: Int) -> [UInt8] {
        lock.withLock { Array(bytes[min(mark, bytes.count)...]) }
    }

    /// Everything the app wrote.
    var everything: [UInt8] { output(since: 0) }

    /// Keys, as a terminal sends them.
    func type(_ text: String) { write(text) }

    private func write(_ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until what was written since `mark` satisfies `condition`.
    @discardableResult
    func waitFor(_ what: String, since mark: Int = 0, timeout: TimeInterval = 15, _ condition: ([UInt8]) -> Bool) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let output = output(since: mark)
            if condition(output) { return output }
            if Date() > deadline { throw HarnessError("timed out waiting for \(what); the app wrote \(String(decoding: output.suffix(600), as: UTF8.self).debugDescription)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Waits until the app has written nothing for `quiet` seconds.
    func settle(quiet: TimeInterval = 0.4, timeout: TimeInterval = 10) {
        let deadline = Date().addingTimeInterval(timeout)
        var last = mark
        var since = Date()
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            let now = mark
            if now != last {
                last = now
                since = Date()
            } else if Date().timeIntervalSince(since) >= quiet {
                return
            }
        }
    }

    /// Waits for the app to exit (after `q`); its status.
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var result = cpty_wait_result()
            if cpty_wait_nohang(pid, &result) == 0, result.kind != 0 { return result.kind == 1 ? result.value : 128 + result.value }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    deinit {
        var result = cpty_wait_result()
        if cpty_wait_nohang(pid, &result) == 0, result.kind == 0 {
            _ = kill(pid, SIGKILL)
            for _ in 0..<100 where cpty_wait_nohang(pid, &result) == 0 && result.kind == 0 { usleep(10_000) }
        }
        close(master)
        try? FileManager.default.removeItem(at: workDirectory)
    }
}
