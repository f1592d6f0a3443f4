import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

/// "Nothing waits on a pending save": the runtime on a store that holds Done's commit, as a
/// stopped PostgreSQL server does. The keys act or are refused while the commit waits, without
/// another store call; the runtime's timers count the wait (fired with a fixed clock); the
/// commit lands when the store answers.
@Suite struct SavingKeysRuntimeTests {
    @Test func keysActWhileDoneWaitsAndTheTimersCountTheWait() throws {
        let offTheLoop = StoreOffTheLoopTests()
        let (harness, store) = try offTheLoop.heldSession()
        harness.press(.character("2"), .character("n"))
        harness.type("shelf 4")
        store.hold()
        defer { store.release() }
        harness.press(.control("d"))
        #expect(offTheLoop.awaitHeldCalls(store, atLeast: 1), "the commit waits at the store")
        let pending = harness.runtime.storageCallsPending

        // F1: the capture's keys at once, and closed again.
        harness.press(.function(1))
        #expect(harness.state.presentation.capture?.isShowingKeys == true)
        harness.press(.function(1))
        #expect(harness.state.presentation.capture?.isShowingKeys == false)
        // Esc explains; typing is refused with its sentence, the note unchanged.
        harness.press(.escape)
        #expect(harness.state.presentation.capture?.saving?.currentReply == .closeWaits)
        harness.type("x")
        #expect(harness.state.presentation.capture?.saving?.currentReply == .captureLocked)
        #expect(harness.state.presentation.capture?.note.text == "shelf 4")
        #expect(harness.runtime.storageCallsPending == pending, "no key queued a store call behind the save")

        // The runtime's timers: each firing counts one second (the next tick is due after it).
        for _ in 0..<PendingSave.patienceSeconds + PendingSave.replySeconds {
            harness.advance(seconds: 3600)
        }
        let line = try #require(harness.state.presentation.capture?.saving?.line(ellipsis: "…"))
        #expect(line == "Saving… 6 s — the database has not answered; your capture is kept as a draft")

        store.release()
        #expect(harness.awaitBackgroundWork { harness.state.presentation.capture == nil })
        #expect(harness.state.status?.text.hasPrefix("Saved") == true)
        #expect(try harness.database.historyPage(HistoryPageRequest(start: 0, count: 10)).rows.map(\.note) == ["shelf 4"])
    }
}
