import Domain
import Foundation
import Runtime
import SQLiteStorage
import Storage
import Synchronization
import TabShell
import Testing

/// The session's store opens off the loop, as its first storage call: the first frame waits a
/// moment for it and no longer; keys work while it opens; its settings and first pages arrive as
/// events; a store that cannot open is said, and tried again.
@Suite struct StoreOpeningRuntimeTests {
    @Test func aStoreSlowToAnswerHoldsTheFirstFrameAMomentAndKeysWorkMeanwhile() throws {
        let (harness, store) = try RuntimeHarness.onHeldStore(held: true)
        var chosen = Settings.default
        chosen.colorEnabled = false
        try harness.database.saveSettings(chosen)

        let opened = ContinuousClock.now
        harness.runtime.open(now: opened)
        #expect(harness.runtime.holdsFrame(now: opened), "the first frame waits for the store's answer")
        #expect(!harness.runtime.holdsFrame(now: opened + .milliseconds(101)), "for a moment only")
        #expect(harness.runtime.millisecondsToNextDeadline(now: opened) <= 101, "the loop wakes when the hold ends")
        harness.press(.character("3"))
        #expect(harness.state.selectedTab == .history)
        #expect(harness.state.settings.colorEnabled, "the defaults until the store answers")

        store.release()
        #expect(harness.awaitBackgroundWork { harness.state.inbox.hasLoaded && harness.state.history.hasLoaded })
        #expect(harness.state.settings == chosen, "the store's settings once it answers")
        #expect(harness.state.storeReach == .answering)
    }

    @Test func aStoreThatCannotOpenIsSaidAndTriedAgainUntilItOpens() throws {
        let attempts = Attempts()
        let harness = try RuntimeHarness(
            storage: .background,
            opening: { database in
                OpeningStore(displayName: "postgres://ada@db:5432") { () throws(StorageError) -> any RecordStore in
                    guard attempts.next() > 1 else {
                        throw .unreachable("Cannot reach PostgreSQL at db:5432: connection refused.")
                    }
                    return database
                }
            })
        // Before the failure, so before its retry's time however slow the run.
        let began = ContinuousClock.now
        harness.runtime.open()
        #expect(harness.awaitBackgroundWork { harness.state.storeReach.problem != nil })
        #expect(harness.state.storeReach.problem == "Cannot reach PostgreSQL at db:5432: connection refused.")
        #expect(harness.state.status?.kind == .error)
        #expect(!harness.runtime.holdsFrame(), "a failure is drawn at once")
        // A call meanwhile fails at once with why the store is not there, not "still connecting".
        harness.runtime.dispatch(.storageFailed("placeholder"))
        harness.press(.character("3"))
        // The key clears the status line; the read's failure, once delivered, writes it.
        #expect(harness.awaitBackgroundWork { (harness.state.status?.text).map { $0 != "placeholder" } ?? false })
        #expect(harness.state.status?.text == "Cannot reach PostgreSQL at db:5432: connection refused.")

        // Not before its time; then once.
        harness.runtime.checkForChangesElsewhere(now: began)
        #expect(harness.runtime.storageCallsPending == 0)
        harness.runtime.checkForChangesElsewhere(now: ContinuousClock.now + AppRuntime.openRetryInterval + .milliseconds(10))
        #expect(harness.awaitBackgroundWork { harness.state.inbox.hasLoaded })
        #expect(attempts.count == 2)
        #expect(harness.state.storeReach == .answering)
        #expect(harness.state.status?.text == "The database answers now.")
    }

    /// A commit elsewhere right after the store opened, before the first change check, is a
    /// change: the open takes the counter's baseline before the first reads (a first check
    /// taking it would count that commit as already seen, and the Inbox would never show it).
    @Test func aCommitElsewhereJustAfterTheOpenIsSeen() throws {
        let harness = try RuntimeHarness(storage: .background)
        harness.runtime.open()
        #expect(harness.awaitBackgroundWork { harness.state.inbox.hasLoaded })
        #expect(harness.state.inbox.requests.isEmpty)
        let elsewhere = try AppDatabase.open(at: harness.folder.appendingPathComponent("tabshell.sqlite"))
        _ = try elsewhere.addRequest(title: "Count the pallets", body: "", kind: .barcode, now: Date(), createdBy: "bo", requester: nil)
        #expect(
            harness.awaitBackgroundWork {
                harness.runtime.checkForChangesElsewhere()
                return harness.state.inbox.requests.contains { $0.title == "Count the pallets" }
            })
    }

    @Test func aReadAskedForByAKeyHoldsItsFrameAMomentNotLonger() throws {
        let (harness, store) = try RuntimeHarness.onHeldStore()
        harness.runtime.open()
        #expect(harness.awaitBackgroundWork { harness.state.inbox.hasLoaded && harness.state.history.hasLoaded })
        harness.runtime.drawn()
        #expect(!harness.runtime.holdsFrame())

        store.hold()
        let pressed = ContinuousClock.now
        harness.press(.character("/"))
        harness.type("shelf")
        #expect(harness.runtime.storageCallsPending > 0, "the search's read is queued")
        #expect(harness.runtime.holdsFrame(now: pressed), "the frame waits for the rows")
        // The queue became busy at one of those keys, so before now.
        #expect(!harness.runtime.holdsFrame(now: .now + AppRuntime.frameHold + .milliseconds(1)), "a read that does not answer holds it no longer")
        store.release()
        #expect(harness.awaitBackgroundWork { harness.runtime.storageCallsPending == 0 })
        // Its answer handed over (the queue counts a call done just before it wakes the loop).
        harness.runtime.deliverMail()
        #expect(!harness.runtime.holdsFrame(), "every read answered: nothing held")
    }
}

/// How many times a store was asked to open.
final class Attempts: Sendable {
    private let made = Mutex(0)
    /// Counts one more; returns the count.
    func next() -> Int {
        made.withLock {
            $0 += 1
            return $0
        }
    }
    var count: Int { made.withLock { $0 } }
}
