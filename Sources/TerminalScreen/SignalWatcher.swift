import CNcursesw
import Dispatch
import Glibc
import Synchronization

/// Catches process signals and turns them into something the main loop can wait for.
///
/// Each signal is set to "ignore" (Linux's DispatchSource needs that) and watched by a
/// DispatchSource on a private serial queue. Its handler, which runs outside the main thread,
/// only records the signal and writes one byte to a self-pipe; the main loop polls the pipe's
/// read end next to the tty, so a signal wakes it at once and every reaction (restoring the
/// terminal, suspending, resizing) happens on the main thread, never inside a signal handler.
/// Replay and `--record`'s relay poll it beside their own descriptors too.
public final class SignalWatcher {
    /// The read end of the self-pipe: readable whenever a signal was recorded.
    public let wakeDescriptor: Int32
    private let shared: Shared
    private let queue = DispatchQueue(label: "tabshell.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var previousDispositions: [(signal: Int32, action: sigaction)] = []

    /// What the handlers share with the main thread.
    private final class Shared: Sendable {
        let pending = Mutex<[Int32]>([])
        let writeDescriptor: Int32
        init(writeDescriptor: Int32) { self.writeDescriptor = writeDescriptor }

        func record(_ signal: Int32) {
            pending.withLock { if !$0.contains(signal) { $0.append(signal) } }
            var byte: UInt8 = 1
            // A full pipe already guarantees a wake-up, so a failed write needs no retry.
            _ = write(writeDescriptor, &byte, 1)
        }
    }

    /// Starts watching `signals`, unblocked (a blocked signal stays pending and never reaches
    /// its source). Fails only when the self-pipe cannot be made.
    public init(signals: [Int32]) throws(TerminalError) {
        var fds: [Int32] = [-1, -1]
        guard ts_make_wake_pipe(&fds) == 0 else {
            throw TerminalError(message: "tabshell could not set up signal handling: \(String(cString: strerror(errno))).")
        }
        wakeDescriptor = fds[0]
        shared = Shared(writeDescriptor: fds[1])
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for signal in signals {
            var previous = sigaction()
            guard ts_ignore_signal(signal, &previous) == 0 else { continue }
            previousDispositions.append((signal, previous))
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            let shared = self.shared
            source.setEventHandler { @Sendable in shared.record(signal) }
            source.resume()
            sources.append(source)
        }
    }

    /// A closure any thread may call to wake the main loop (signal number 0 stands for "wake").
    func waker() -> @Sendable () -> Void {
        let shared = self.shared
        return { shared.record(0) }
    }

    /// The signals recorded since the last call, oldest first, each once; also empties the
    /// self-pipe so the next poll sleeps until something new happens.
    public func takePending() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeDescriptor, &buffer, buffer.count) > 0 {}
        return shared.pending.withLock { exchange(&$0, with: []) }
    }

    /// Stops watching and gives each signal back its previous disposition. Idempotent.
    public func stop() {
        guard !sources.isEmpty || !previousDispositions.isEmpty else { return }
        for source in sources { source.cancel() }
        sources.removeAll()
        // A handler already under way finishes before the pipe can be closed under it.
        queue.sync {}
        for (signal, action) in previousDispositions {
            var action = action
            _ = ts_restore_signal(signal, &action)
        }
        previousDispositions.removeAll()
    }

    deinit {
        stop()
        close(wakeDescriptor)
        close(shared.writeDescriptor)
    }
}
