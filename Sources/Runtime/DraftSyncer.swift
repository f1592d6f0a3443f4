import Foundation
import Storage
import Synchronization

/// Makes the drafts saved on every change durable, off the loop. The loop writes `draft.json`
/// into place itself (no fsync: a kill or a crash a moment later cannot lose it) and asks for
/// a sync here; one background sync covers however many saves came while the last one ran, so
/// a scanner's burst costs a flush or two, not one per character.
final class DraftSyncer: Sendable {
    private struct Pending {
        var path: String?
        var running = false
    }

    private let pending = Mutex(Pending())
    private let queue = DispatchQueue(label: "tabshell.draft-sync")

    /// Asks for the draft at `path` to reach the disk.
    func request(_ path: String) {
        let start = pending.withLock { state -> Bool in
            state.path = path
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// Waits until every sync asked for so far is done (the end of a session, tests).
    func waitUntilIdle() {
        queue.sync {}
    }

    private func drain() {
        while let path = pending.withLock({ state -> String? in
            defer { state.path = nil }
            if state.path == nil { state.running = false }
            return state.path
        }) {
            // A folder gone meanwhile (Done moved it, Close deleted it) has nothing left to keep.
            try? StagingSession.syncDraft(at: path)
        }
    }
}
