import Synchronization
import TabShell

/// Actions posted by background threads for the main loop, which takes them on `.wake`.
public final class Mailbox: Sendable {
    public init() {}

    private let actions = Mutex<[AppAction]>([])

    public func post(_ action: AppAction) {
        actions.withLock { $0.append(action) }
    }

    public func takeAll() -> [AppAction] {
        actions.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}
