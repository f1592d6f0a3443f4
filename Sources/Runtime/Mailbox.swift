import Synchronization
import TabShell

/// Actions posted by background threads for the main loop, which takes them on `.wake`.
final class Mailbox: Sendable {
    private let actions = Mutex<[AppAction]>([])

    func post(_ action: AppAction) {
        actions.withLock { $0.append(action) }
    }

    func takeAll() -> [AppAction] {
        actions.withLock { exchange(&$0, with: []) }
    }
}
