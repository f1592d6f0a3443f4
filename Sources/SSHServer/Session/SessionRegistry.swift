import NIOConcurrencyHelpers

/// The sessions running now, server-wide: enforces the session limits and lets stop() reach
/// every child. A slot is held from the launch decision until the child is reaped.
final class SessionRegistry: Sendable {
    struct Slot: Hashable, Sendable {
        let id: Int
        let connectionID: Int
        /// The client's address as the per-source limits count it (``SourceAddress``).
        var source = ""
        /// The fingerprint of the key the client offered, if any.
        var key: String?
    }

    /// The limit a session would go over: why it is refused (as the metrics count it), and the limit.
    struct Refusal: Error {
        let reason: SSHServerMetrics.SessionRefusal
        let limit: Int
    }

    /// What stop() needs of a running session.
    struct Running: Sendable {
        let process: ChildProcess
        /// Says why the session is ending in a line written once the child's output has
        /// ended (hops to the session's event loop).
        let announceEnd: @Sendable (String) -> Void
    }

    private struct State {
        var nextID = 1
        var slots: [Slot: Running?] = [:]
        /// Sessions started and not yet closed: a child may have ended while its session still
        /// has its last line and exit status to send (after the child's output drains).
        var unclosed = 0
    }

    private let limits: SSHServerLimits
    private let state = NIOLockedValueBox(State())

    init(limits: SSHServerLimits) {
        self.limits = limits
    }

    /// Takes a slot, or says which limit is reached: the server's, the connection's, the
    /// address's (`source`) or the key's.
    func reserve(connectionID: Int, source: String = "", key: String? = nil) -> Result<Slot, Refusal> {
        state.withLockedValue { state in
            let held = state.slots.keys
            // The sessions each limit counts now, in the order they are checked (a key only when one was offered).
            let counted: [(SSHServerMetrics.SessionRefusal, count: Int, limit: Int)] =
                [
                    (.maxSessions, held.count, limits.maxSessions),
                    (.perConnection, held.filter { $0.connectionID == connectionID }.count, limits.maxSessionsPerConnection),
                    (.perSource, held.filter { $0.source == source }.count, limits.maxSessionsPerSource),
                ] + (key.map { key in [(.perKey, held.filter { $0.key == key }.count, limits.maxSessionsPerKey)] } ?? [])
            if let (reason, _, limit) = counted.first(where: { $0.count >= $0.limit }) {
                return .failure(Refusal(reason: reason, limit: limit))
            }
            let slot = Slot(id: state.nextID, connectionID: connectionID, source: source, key: key)
            state.nextID += 1
            state.slots[slot] = .some(nil)
            return .success(slot)
        }
    }

    /// The slot's child started: it runs, and its session is open until ``sessionClosed()``.
    func attach(_ slot: Slot, _ running: Running) {
        state.withLockedValue {
            $0.slots[slot] = running
            $0.unclosed += 1
        }
    }

    /// A session ``attach(_:_:)`` counted has closed its channel (once per attach).
    func sessionClosed() {
        state.withLockedValue { $0.unclosed -= 1 }
    }

    /// Whether every session that started has closed: stop() waits for it, so the last line and
    /// exit status of each are sent before the connections go.
    var allClosed: Bool {
        state.withLockedValue { $0.unclosed == 0 }
    }

    func release(_ slot: Slot) {
        _ = state.withLockedValue { $0.slots.removeValue(forKey: slot) }
    }

    var count: Int {
        state.withLockedValue { $0.slots.count }
    }

    /// The running sessions of one connection.
    func running(connectionID: Int) -> [Running] {
        state.withLockedValue { state in
            state.slots.compactMap { slot, running in slot.connectionID == connectionID ? running : nil }
        }
    }

    var running: [Running] {
        state.withLockedValue { $0.slots.values.compactMap { $0 } }
    }
}
