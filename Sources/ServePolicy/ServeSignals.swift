import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A one-shot latch the signal handlers open and the main thread waits on.
public final class SignalLatch: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let opened = Atomic<Bool>(false)

    public init() {}

    public func signal() {
        if !opened.exchange(true, ordering: .relaxed) { semaphore.signal() }
    }

    public func wait() { semaphore.wait() }
}

/// SIGHUP re-reads the authorized keys; SIGTERM and SIGINT stop the server. Watched with
/// dispatch sources (the signals themselves ignored), so nothing runs inside a signal handler.
public final class ServeSignals {
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "tabshell.serve.signals")

    public init(reload: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> Void) {
        for (number, action) in [(SIGHUP, reload), (SIGTERM, stop), (SIGINT, stop)] {
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
