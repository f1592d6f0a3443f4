import CPty
import Dispatch
import Glibc
import NIOConcurrencyHelpers
import NIOCore

/// A session's child: the leader of its own session and process group, watched until it is
/// reaped. Signals go to the whole group, and only while the child is unreaped, so a recycled
/// pid is never signalled.
final class ChildProcess: Sendable {
    let pid: pid_t

    private struct State {
        var end: SSHSessionEnd.Termination?
        var wasHungUp = false
        var exitHandlers: [@Sendable (SSHSessionEnd) -> Void] = []
        var watcher: DispatchSourceBox?
    }

    private let state = NIOLockedValueBox(State())
    private static let queue = DispatchQueue(label: "tabshell.ssh.children")

    init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts watching: a pidfd where the kernel has them, a 50 ms poll otherwise.
    func startWatching() {
        let source: any DispatchSourceProtocol
        let pidfd = cpty_pidfd_open(pid)
        if pidfd >= 0 {
            let read = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: Self.queue)
            read.setEventHandler { [weak self] in self?.reapIfEnded() }
            read.setCancelHandler { close(pidfd) }
            source = read
        } else {
            let timer = DispatchSource.makeTimerSource(queue: Self.queue)
            timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
            timer.setEventHandler { [weak self] in self?.reapIfEnded() }
            source = timer
        }
        state.withLockedValue { $0.watcher = DispatchSourceBox(source: source) }
        source.resume()
        // The child may have ended before the source was armed.
        Self.queue.async { [weak self] in self?.reapIfEnded() }
    }

    var hasEnded: Bool {
        state.withLockedValue { $0.end != nil }
    }

    /// Calls `handler` once the child is reaped (at once if it already was).
    func whenEnded(_ handler: @escaping @Sendable (SSHSessionEnd) -> Void) {
        let ended: SSHSessionEnd? = state.withLockedValue { state in
            guard let end = state.end else {
                state.exitHandlers.append(handler)
                return nil
            }
            return SSHSessionEnd(termination: end, wasHungUp: state.wasHungUp)
        }
        if let ended { handler(ended) }
    }

    /// SIGHUP to the child's process group, as a terminal hang-up would; SIGKILL after
    /// `killAfter` if it is still running.
    func hangUp(killAfter: Duration?) {
        let sent = state.withLockedValue { state -> Bool in
            guard state.end == nil else { return false }
            state.wasHungUp = true
            _ = Glibc.kill(-pid, SIGHUP)
            return true
        }
        guard sent, let killAfter else { return }
        let nanoseconds = Int(TimeAmount(killAfter).nanoseconds)
        Self.queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            self?.kill()
        }
    }

    /// `signal` to the child itself (not its group), only while it is unreaped: a notice such
    /// as the idle timeout's, for a program that handles it.
    func send(_ signal: Int32) {
        state.withLockedValue { state in
            guard state.end == nil else { return }
            _ = Glibc.kill(pid, signal)
        }
    }

    /// SIGKILL to the child's process group.
    func kill() {
        state.withLockedValue { state in
            guard state.end == nil else { return }
            _ = Glibc.kill(-pid, SIGKILL)
        }
    }

    private func reapIfEnded() {
        var result = cpty_wait_result()
        let error = cpty_wait_nohang(pid, &result)
        let termination: SSHSessionEnd.Termination
        if error == ECHILD {
            // Someone else reaped it (a waitpid(-1) elsewhere in the process): status unknown.
            termination = .exited(status: 255)
        } else if error != 0 || result.kind == 0 {
            return
        } else if result.kind == 1 {
            termination = .exited(status: Int(result.value))
        } else {
            termination = .killed(signal: result.value)
        }
        let (handlers, end, watcher) = state.withLockedValue { state in
            state.end = termination
            defer {
                state.exitHandlers = []
                state.watcher = nil
            }
            return (state.exitHandlers, SSHSessionEnd(termination: termination, wasHungUp: state.wasHungUp), state.watcher)
        }
        watcher?.source.cancel()
        ChildReaper.release(pid)
        for handler in handlers {
            handler(end)
        }
    }
}
