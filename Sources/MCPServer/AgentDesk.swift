import Domain
import Foundation
import Storage

/// What the MCP tools do, over a `RecordStore`: every store call runs in order on one serial
/// queue of the desk's own (the store's calls are synchronous and must not hold the
/// cooperative threads), and a wait sleeps between looks at the store's change counter, woken
/// early by the store's news of another process's commit.
public final class AgentDesk: @unchecked Sendable {
    /// The limits an agent meets. Each is said in the sentence that refuses it.
    public struct Limits: Sendable {
        /// The longest a `wait_for_answer` may ask to wait, in seconds.
        public var longestWait: Double = 600
        /// Waits in flight at once; one more is refused.
        public var concurrentWaits = 8
        /// Requests an agent may file in a minute (a token bucket of this size, refilled evenly).
        public var requestsPerMinute = 60
        /// Records one search or list returns at most.
        public var listLimit = 100
        /// How often a wait looks at the store's change counter.
        public var changePoll: Duration = .milliseconds(200)
        /// How often a wait tells a client that asked for progress that it is still waiting.
        public var progressInterval: Duration = .seconds(10)

        public init() {}
    }

    let store: any RecordStore
    let person: String
    let limits: Limits
    let now: @Sendable () -> Date
    private let queue = DispatchQueue(label: "tabshell.mcp.store")
    private let gate = NSLock()
    private var waits = 0
    /// Looks at a waited-for request so far (what a wait has seen is ordered after them).
    private var looks = 0
    /// The store's news of other processes' commits, asked for at the first wait.
    private var hints: ChangeHints?
    private let hinted = ChangeHint()
    private var closing = false
    private var filingBucket: Double
    private var bucketFilledAt: Date

    public init(store: any RecordStore, person: String, limits: Limits = Limits(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.person = person
        self.limits = limits
        self.now = now
        filingBucket = Double(limits.requestsPerMinute)
        bucketFilledAt = now()
    }

    /// Runs `body` on the store's queue and hands back its answer.
    func onStore<T: Sendable>(_ body: @escaping @Sendable (any RecordStore) throws -> T) async throws -> T {
        let store = store
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(store) }) }
        }
    }

    // MARK: - Filing

    /// Takes one filing from the bucket, or says how long until one is free.
    func takeFiling() throws(ToolRefusal) {
        gate.lock()
        defer { gate.unlock() }
        let moment = now()
        let perSecond = Double(limits.requestsPerMinute) / 60
        filingBucket = min(Double(limits.requestsPerMinute), filingBucket + moment.timeIntervalSince(bucketFilledAt) * perSecond)
        bucketFilledAt = moment
        guard filingBucket >= 1 else {
            let wait = Int(((1 - filingBucket) / perSecond).rounded(.up))
            throw ToolRefusal(
                "Too many requests: an agent may file at most \(limits.requestsPerMinute) a minute; try again in \(max(wait, 1)) s.")
        }
        filingBucket -= 1
    }

    // MARK: - Closing

    var isClosing: Bool { gate.withLock { closing } }

    /// The client closed its end: waits in flight end at their next look (saying the request
    /// is still pending), so their answers can be written before the process exits.
    public func close() {
        gate.withLock { closing = true }
    }

    // MARK: - Waiting

    /// Counts a wait in, or refuses it when `concurrentWaits` are in flight.
    func beginWait() throws(ToolRefusal) {
        gate.lock()
        defer { gate.unlock() }
        guard waits < limits.concurrentWaits else {
            throw ToolRefusal("At most \(limits.concurrentWaits) waits can run at once; wait for one to end first.")
        }
        waits += 1
    }

    var requestLooks: Int { gate.withLock { looks } }

    func endWait() {
        gate.withLock { waits -= 1 }
    }

    /// The answer's record id once the request `id` is answered, nil when `seconds` pass first;
    /// looks again each time the store's change counter moves (another process committed).
    func answer(to id: Int64, within seconds: Double) async throws -> WaitOutcome {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var seen: Int64? = nil
        var lookedAt = ContinuousClock.now
        var existed = false
        while true {
            let counter = try await onStore { try $0.externalChangeCounter() }
            // The counter wakes the wait at once; a look every 2 s as well bounds what a missed
            // change could cost (a change counted before the first look at the request). Past
            // the deadline one last look is taken all the same: a wait whose task was held up
            // (a busy machine) answers with what the store holds then, never with an old look.
            let late = ContinuousClock.now >= deadline || isClosing
            if counter != seen || ContinuousClock.now - lookedAt >= .seconds(2) || late {
                seen = counter
                lookedAt = ContinuousClock.now
                let state = try await look(at: id)
                switch state {
                case .pending: existed = true
                case .gone where existed: return .withdrawn
                default: return state
                }
                if late { return state }
            }
            try await pause(until: min(ContinuousClock.now + limits.changePoll, deadline))
        }
    }

    /// The request `id` as the store holds it now: answered (with the record), pending or gone.
    private func look(at id: Int64) async throws -> WaitOutcome {
        let state = try await onStore { store -> WaitOutcome in
            guard let request = try store.request(id: id) else { return .gone }
            guard request.status == .done else { return .pending(request) }
            guard let answer = try store.answerID(toRequest: id) else { return .pending(request) }
            return .answered(request, recordID: answer)
        }
        gate.withLock { looks += 1 }
        return state
    }

    /// Sleeps until `end`, or until the store's news of another process's commit (looked at
    /// every 10 ms: a flag, not the store), whichever is first.
    private func pause(until end: ContinuousClock.Instant) async throws {
        gate.withLock {
            if hints == nil { hints = store.changeHints { [hinted] in hinted.raise() } }
        }
        while ContinuousClock.now < end {
            if hinted.take() { return }
            try await Task.sleep(for: min(.milliseconds(10), end - ContinuousClock.now))
        }
    }

    enum WaitOutcome: Sendable {
        case answered(InboxRequest, recordID: Int64)
        case pending(InboxRequest)
        /// There is no such request.
        case gone
        /// It was there when the wait began and was removed during it (cancelled).
        case withdrawn
    }
}
