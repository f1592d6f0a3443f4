import Synchronization

/// A total size shared by many recordings (`serve --record-total-limit`): each line written
/// takes its bytes from it, and once one would go over, every recording stops growing.
public final class RecordingBudget: Sendable {
    /// `serve --record`'s default total: 1 GiB, counting the casts already in the folder.
    public static let defaultLimit = 1 << 30

    public let limit: Int
    private let state: Mutex<(used: Int, exhausted: Bool)>

    /// A budget inside another (one visitor's share of the server's total): bytes are taken
    /// from both, and either one spent stops the recording.
    public let parent: RecordingBudget?

    /// `alreadyUsed`: what earlier recordings in the same place hold.
    public init(limit: Int, alreadyUsed: Int = 0, within parent: RecordingBudget? = nil) {
        self.limit = limit
        self.parent = parent
        self.state = Mutex((alreadyUsed, alreadyUsed >= limit))
    }

    public var used: Int { state.withLock { $0.used } }
    public var isExhausted: Bool { state.withLock { $0.exhausted } }

    /// Takes `count` bytes. `firstRefusal` is true for the one call that found the budget spent
    /// (so the log says it once).
    public func take(_ count: Int) -> (taken: Bool, firstRefusal: Bool) {
        state.withLock { state in
            if state.exhausted { return (false, false) }
            guard state.used + count <= limit else {
                state.exhausted = true
                return (false, true)
            }
            if let parent {
                let taken = parent.take(count)
                guard taken.taken else { return taken }
            }
            state.used += count
            return (true, false)
        }
    }
}
