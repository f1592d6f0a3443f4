import ChildProcess
import Dispatch
import Domain
import Foundation
import Logging
import Storage
import TabShell

/// The on-commit command (`tabshell --on-commit CMD`): after each Done, `/bin/sh -c CMD` runs
/// with the committed record on its standard input, as one JSON line (the object `history
/// export --follow` prints), so the answer goes back to whoever asked without polling.
///
/// It runs off the main loop, one command at a time in commit order, so it never delays a key.
/// Its standard output is discarded (the screen is the app's); the end of its standard error goes
/// to the log. A command that cannot start, exits non-zero, is killed, or outlives `timeout`
/// (then SIGTERM, and SIGKILL 2 s later) is logged and shown once as a notice.
public struct CommitHook: Sendable {
    public var command: String
    public var timeout: Duration
    /// The record `id` as one line of JSON, or nil when it cannot be read.
    public var describe: @Sendable (Int64) -> String?

    public init(command: String, timeout: Duration = .seconds(10), describe: @escaping @Sendable (Int64) -> String?) {
        self.command = command
        self.timeout = timeout
        self.describe = describe
    }

    /// The on-commit command as the app runs it: the record read back from `store` and written
    /// as `history export --follow` writes it (every field, a batch's lines included). The
    /// session's store may still be opening (a record is committed only once it has opened).
    public init(command: String, timeout: Duration = .seconds(10), store: OpeningStore) {
        self.init(command: command, timeout: timeout) { id in
            (try? store.store().exportedRecord(id: id)).flatMap { $0 }.map(JSONText.record)
        }
    }
}

/// Runs a `CommitHook` on a queue of its own and posts failures to the mailbox.
final class CommitHookRunner: Sendable {
    private let hook: CommitHook
    private let mailbox: Mailbox
    private let wake: @Sendable () -> Void
    private let logger: Logger
    private let queue = DispatchQueue(label: "tabshell.on-commit")

    init(hook: CommitHook, mailbox: Mailbox, wake: @escaping @Sendable () -> Void, logger: Logger) {
        // A command that exits without reading its input closes the pipe under our write: that
        // must fail the write, not kill the app (the command itself gets SIGPIPE back, below).
        _ = signal(SIGPIPE, SIG_IGN)
        self.hook = hook
        self.mailbox = mailbox
        self.wake = wake
        self.logger = logger
    }

    /// Starts the command for record `id` once the ones before it have finished; returns at once.
    func run(recordID id: Int64) {
        queue.async { [self] in
            if let failure = runNow(recordID: id) {
                logger.warning("on-commit command failed: \(failure)", metadata: ["record": "\(id)", "command": "\(hook.command)"])
                mailbox.post(.commitHookFailed("On-commit command for record #\(id): \(failure)"))
                wake()
            } else {
                logger.info("on-commit command done", metadata: ["record": "\(id)"])
            }
        }
    }

    /// Waits for the commands already started or waiting to finish, at most `limit`: quitting
    /// right after a Done still hands the record on.
    func drain(within limit: Duration) -> Bool {
        let finished = queue.finishesQueuedWork(within: limit)
        if !finished { logger.warning("on-commit commands still running or waiting at exit; those waiting are not run") }
        return finished
    }

    /// Runs the command and waits for it; the failure as a phrase, or nil when it succeeded.
    ///
    /// Spawned directly (not through Foundation's Process, which notices an exit only when every
    /// process holding its descriptors has gone, so a command that leaves a child behind would
    /// seem to run forever), in a process group of its own, so a timeout stops the command and
    /// whatever it started.
    private func runNow(recordID id: Int64) -> String? {
        guard let json = hook.describe(id) else { return "the record could not be read." }
        let errorsPath = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-on-commit-\(UUID().uuidString)").path
        defer { unlink(errorsPath) }
        var input: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { return "it could not be started (no pipe)." }
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)

        var environment = ProcessInfo.processInfo.environment
        environment["TABSHELL_RECORD_ID"] = String(id)
        let started = ChildProcess.spawn(
            ["/bin/sh", "-c", hook.command], environment: environment, standardInput: .descriptor(input[0]),
            standardError: .file(errorsPath), ownProcessGroup: true)
        close(input[0])
        let child: ChildProcess
        switch started {
        case let .success(running): child = running
        case let .failure(failure):
            close(input[1])
            return "it could not be started (\(failure.reason))."
        }
        // A command that does not read its input must not block us: a record (a batch of
        // thousands of lines) can be larger than the pipe holds, so the pipe takes what fits
        // while the command runs, and the timeout counts from its start. A closed pipe only
        // fails the write (SIGPIPE is ignored, see `init`).
        _ = fcntl(input[1], F_SETFL, fcntl(input[1], F_GETFL) | O_NONBLOCK)
        var feed = InputFeed(descriptor: input[1], bytes: Array((json + "\n").utf8))
        defer { feed.close() }

        let deadline = ContinuousClock.now + hook.timeout
        var termination: ChildProcess.Termination?
        while termination == nil, ContinuousClock.now < deadline {
            feed.write()
            termination = child.exited()
            if termination == nil { usleep(20_000) }
        }
        feed.close()
        let tail = Self.tail(of: URL(fileURLWithPath: errorsPath))
        guard let termination else {
            kill(-child.pid, SIGTERM)
            let grace = ContinuousClock.now + .seconds(2)
            var reaped = false
            while !reaped, ContinuousClock.now < grace {
                reaped = child.exited() != nil
                if !reaped { usleep(20_000) }
            }
            // The whole group: what the command started goes with it.
            kill(-child.pid, SIGKILL)
            if !reaped { _ = child.wait() }
            return "it ran longer than \(hook.timeout.components.seconds) s and was stopped." + tail
        }
        switch termination {
        case .exited(0): return nil
        case let .exited(code): return "it exited with status \(code)." + tail
        case let .signalled(signal): return "it was killed by signal \(signal)." + tail
        }
    }

    /// The last line the command wrote to its standard error, as " It said: …", or "".
    private static func tail(of file: URL) -> String {
        // Only the end is read: a hook may have written gigabytes before it failed.
        guard let handle = try? FileHandle(forReadingFrom: file) else { return "" }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0, (try? handle.seek(toOffset: size - min(size, 2048))) != nil,
            let data = try? handle.readToEnd(), !data.isEmpty
        else { return "" }
        let text = String(decoding: data, as: UTF8.self)
        guard let last = text.split(whereSeparator: \.isNewline).last else { return "" }
        let line = Sanitizer(unicode: true).line(String(last)).trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? "" : " It said: \(line.prefix(200))"
    }
}

/// The record on its way into the command's standard input: written as far as the pipe takes
/// it, never waiting, and closed once all of it is written (the command's end of file).
private struct InputFeed {
    let descriptor: Int32
    var bytes: [UInt8]
    var written = 0
    var closed = false

    mutating func write() {
        while !closed, written < bytes.count {
            let count = bytes[written...].withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN {
                return
            } else {
                break  // The command closed its input: what it did not read is not written.
            }
        }
        close()
    }

    mutating func close() {
        guard !closed else { return }
        closed = true
        _ = Glibc.close(descriptor)
    }
}
