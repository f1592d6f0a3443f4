import Dispatch
import Foundation
import Storage
import Synchronization
import TabShell

/// Where the storage calls of a session run.
///
/// `.background` is the app's: each call runs on a serial queue of the session's own, so a slow
/// or silent database never holds the screen; the answer comes back through the loop's wake,
/// in the order the calls were made (a Done, then the History read that follows it; a settings
/// save, then the next read). `.inline` runs each call at once on the caller's thread, its
/// answer handed back with the effect's other actions (like an immediate scheduler): the
/// model and runtime tests use it to read results without waiting.
public struct StorageExecutor: Sendable, Equatable {
    let runsInline: Bool

    /// On the caller's thread, at once (tests).
    public static let inline = StorageExecutor(runsInline: true)
    /// On a serial queue of the session's own, the answer delivered at the next wake (the app).
    public static let background = StorageExecutor(runsInline: false)
}

/// A value handed from one thread to another that only one of them uses at a time.
struct Handed<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The only place a session's storage calls are made. `run` performs a call with the executor's
/// rules and turns its outcome into actions on the main thread (`then` always runs there: in
/// `run` itself when inline, else in `takeFinished` after a wake).
final class StorageQueue {
    private let database: OpeningStore
    private let queue: DispatchQueue?
    private let wake: @Sendable () -> Void
    private let outbox = Outbox()

    /// Outcomes waiting for the main thread, in the order their calls finished, and how many
    /// calls are queued or running.
    private final class Outbox: Sendable {
        let finished = Mutex<[Handed<() -> [AppAction]>]>([])
        let pending = Atomic<Int>(0)
    }

    init(database: OpeningStore, executor: StorageExecutor, label: String, wake: @escaping @Sendable () -> Void) {
        self.database = database
        self.wake = wake
        queue = executor.runsInline ? nil : DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Calls queued or running.
    var pendingCount: Int { outbox.pending.load(ordering: .acquiring) }

    /// Runs `work` against the store; `then` turns its outcome into actions on the main thread.
    /// Returns those actions when inline, else nothing (they come from `takeFinished`). Before
    /// the store has opened, `work` is not run and `then` gets why (`OpeningStore.store()`).
    func run<T>(
        _ work: @escaping @Sendable (any RecordStore) throws(StorageError) -> T,
        then: @escaping (Result<T, StorageError>) -> [AppAction]
    ) -> [AppAction] {
        perform({ database throws(StorageError) in try work(database.store()) }, then: then)
    }

    /// Opens the store (the first call a session queues, so every call after it finds it open)
    /// and runs `work` on it; `then` as for ``run(_:then:)``.
    func open<T>(
        _ work: @escaping @Sendable (any RecordStore) throws(StorageError) -> T,
        then: @escaping (Result<T, StorageError>) -> [AppAction]
    ) -> [AppAction] {
        perform({ database throws(StorageError) in try work(database.open()) }, then: then)
    }

    private func perform<T>(
        _ work: @escaping @Sendable (OpeningStore) throws(StorageError) -> T,
        then: @escaping (Result<T, StorageError>) -> [AppAction]
    ) -> [AppAction] {
        guard let queue else {
            return then(Result { () throws(StorageError) in try work(self.database) })
        }
        outbox.pending.add(1, ordering: .releasing)
        let answer = Handed(then)
        let store = self.database, outbox = self.outbox, wake = self.wake
        queue.async {
            let outcome = Handed(Result { () throws(StorageError) in try work(store) })
            outbox.finished.withLock { $0.append(Handed { answer.value(outcome.value) }) }
            outbox.pending.subtract(1, ordering: .releasing)
            wake()
        }
        return []
    }

    /// The actions of the calls that have finished since the last time (main thread).
    func takeFinished() -> [AppAction] {
        outbox.finished.withLock { exchange(&$0, with: []) }.flatMap { $0.value() }
    }

    /// Waits up to `limit` for the calls already queued to finish; true when none is left.
    @discardableResult
    func drain(within limit: Duration) -> Bool {
        queue?.finishesQueuedWork(within: limit) ?? true
    }
}

extension DispatchQueue {
    /// Waits up to `limit` for the work already queued on this serial queue; true when it has run.
    func finishesQueuedWork(within limit: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        async { done.signal() }
        return done.wait(timeout: .now() + limit / .seconds(1)) == .success
    }
}
