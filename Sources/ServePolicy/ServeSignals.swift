import Dispatch
import Foundation
import Synchronization

/// What the signal handlers tell the main thread, in order; it waits for the next one.
public final class ServeEvents: Sendable {
    public enum Event: Sendable { case stop, upgrade }

    private let pending = Mutex<[Event]>([])
    private let semaphore = DispatchSemaphore(value: 0)

    public init() {}

    public func post(_ event: Event) {
        pending.withLock { $0.append(event) }
        semaphore.signal()
    }

    /// The next event, waiting for one up to `timeout` (for ever when nil); nil when none came.
    public func next(timeout: Duration? = nil) -> Event? {
        if let timeout {
            let nanoseconds = Int(timeout.components.seconds) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000)
            guard semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        } else {
            semaphore.wait()
        }
        return pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// SIGHUP re-reads the configuration and the authorized keys; SIGUSR2 upgrades (``ServeUpgrade``);
/// SIGTERM and SIGINT stop the server. Watched with dispatch sources (the signals themselves
/// ignored), so nothing runs inside a signal handler.
public final class ServeSignals {
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "tabshell.serve.signals")

    public init(
        reload: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> Void, upgrade: @escaping @Sendable () -> Void = {}
    ) {
        for (number, action) in [(SIGHUP, reload), (SIGTERM, stop), (SIGINT, stop), (SIGUSR2, upgrade)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: action)
            source.resume()
            sources.append(source)
        }
    }

    public func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
    }
}
