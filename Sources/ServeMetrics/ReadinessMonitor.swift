import Synchronization

/// Asks the store whether it answers, every `interval`, off every event loop: ready while the
/// last probe answered yes within `deadline`. A probe still running when the next is due is not
/// joined by another (at most one is ever in flight, whatever the store does); the store counts
/// as unreachable until it answers.
public final class ReadinessMonitor: Sendable {
    /// Whether the store answers; may take any time (the monitor bounds the wait, not the work).
    public typealias Probe = @Sendable () async -> Bool

    private struct State {
        var ready = false
        var inFlight = false
        var loop: Task<Void, Never>?
    }

    private let probe: Probe
    private let interval: Duration
    private let deadline: Duration
    private let onChange: @Sendable (Bool) -> Void
    private let state = Mutex(State())

    /// `onChange` is told each change of readiness (and the first answer).
    public init(
        probe: @escaping Probe, interval: Duration = .milliseconds(250), deadline: Duration = .seconds(1),
        onChange: @escaping @Sendable (Bool) -> Void = { _ in }
    ) {
        self.probe = probe
        self.interval = interval
        self.deadline = deadline
        self.onChange = onChange
    }

    /// Whether the last probe answered yes within its deadline.
    public var isReady: Bool { state.withLock { $0.ready } }

    /// Probes once now, then every `interval` until ``stop()``.
    public func start() {
        let loop = Task { [self] in
            var last: Bool?
            while !Task.isCancelled {
                let answered = await probeOnce()
                state.withLock { $0.ready = answered }
                if answered != last { onChange(answered) }
                last = answered
                try? await Task.sleep(for: interval)
            }
        }
        state.withLock { $0.loop = loop }
    }

    public func stop() {
        state.withLock { $0.loop }?.cancel()
    }

    /// One probe raced against the deadline; false at once while an earlier one is still out.
    func probeOnce() async -> Bool {
        let mayStart = state.withLock { state in
            defer { state.inFlight = true }
            return !state.inFlight
        }
        guard mayStart else { return false }
        let answer = FirstAnswer()
        let probe = self.probe
        let deadline = self.deadline
        return await withCheckedContinuation { continuation in
            answer.set(continuation)
            Task { [self] in
                let ready = await probe()
                state.withLock { $0.inFlight = false }
                answer.give(ready)
            }
            Task {
                try? await Task.sleep(for: deadline)
                answer.give(false)
            }
        }
    }
}

/// A continuation resumed by whichever answer comes first; later ones are dropped.
private final class FirstAnswer: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func set(_ given: CheckedContinuation<Bool, Never>) {
        continuation.withLock { $0 = given }
    }

    func give(_ answer: Bool) {
        continuation.withLock { $0.take()?.resume(returning: answer) }
    }
}
