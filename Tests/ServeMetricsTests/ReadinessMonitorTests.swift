import Synchronization
import Testing

@testable import ServeMetrics

/// The readiness loop with probes that answer, fail, and hang until let go (a store gone
/// silent): the answer is bounded by the deadline, and a hung probe is never joined by another.
@Suite struct ReadinessMonitorTests {
    /// A probe that waits until the store is back (``comeBack()``), then answers yes at once;
    /// counts how many are out at once.
    final class HeldProbe: Sendable {
        private struct State {
            var waiting: [CheckedContinuation<Bool, Never>] = []
            var back = false
            var started = 0
            var mostAtOnce = 0
        }
        private let state = Mutex(State())

        func probe() async -> Bool {
            await withCheckedContinuation { continuation in
                let answerNow = state.withLock { state in
                    state.started += 1
                    guard !state.back else { return true }
                    state.waiting.append(continuation)
                    state.mostAtOnce = max(state.mostAtOnce, state.waiting.count)
                    return false
                }
                if answerNow { continuation.resume(returning: true) }
            }
        }

        func comeBack() {
            let waiting = state.withLock { state in
                defer { state.waiting = [] }
                state.back = true
                return state.waiting
            }
            for continuation in waiting { continuation.resume(returning: true) }
        }

        var started: Int { state.withLock { $0.started } }
        var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
    }

    @Test func aProbeThatAnswersInTimeDecides() async {
        let yes = ReadinessMonitor(probe: { true }, deadline: .seconds(60))
        #expect(await yes.probeOnce())
        let no = ReadinessMonitor(probe: { false }, deadline: .seconds(60))
        #expect(await no.probeOnce() == false)
    }

    @Test func aHungProbeIsUnreadyAtItsDeadlineAndNotJoinedByAnother() async {
        let held = HeldProbe()
        let monitor = ReadinessMonitor(probe: { await held.probe() }, deadline: .milliseconds(50))
        #expect(await monitor.probeOnce() == false, "the deadline answers for a silent store")
        #expect(await monitor.probeOnce() == false, "still out: unready at once")
        #expect(await monitor.probeOnce() == false)
        #expect(held.started == 1 && held.mostAtOnce == 1, "one probe in flight, not \(held.mostAtOnce)")
        held.comeBack()
        // The held probe ends on its own task; the first probe after that answers.
        var answered = false
        for _ in 0..<3000 where !answered {
            answered = await monitor.probeOnce()
            if !answered { try? await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(answered, "a store back answers the next probe")
        #expect(held.mostAtOnce == 1)
    }

    @Test func theLoopFollowsTheStoreAndSaysEachChange() async {
        let reachable = Mutex(true)
        let changes = Mutex<[Bool]>([])
        let monitor = ReadinessMonitor(
            probe: { reachable.withLock { $0 } }, interval: .milliseconds(10), deadline: .seconds(60),
            onChange: { ready in changes.withLock { $0.append(ready) } })
        monitor.start()
        defer { monitor.stop() }
        #expect(await Self.eventually { monitor.isReady })
        reachable.withLock { $0 = false }
        #expect(await Self.eventually { !monitor.isReady })
        reachable.withLock { $0 = true }
        #expect(await Self.eventually { monitor.isReady })
        #expect(changes.withLock { $0 }.starts(with: [true, false, true]), "\(changes.withLock { $0 })")
    }

    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<3000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
