import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

/// The store never runs on the loop. The session's storage calls run on its own
/// queue (`.background`, as in the app), against a real SQLite store whose calls are held as a
/// silent server holds them: every key is answered meanwhile, Done says it is saving, and the
/// answer lands once the store answers.
@Suite struct StoreOffTheLoopTests {
    /// A session on a held store, started, with its first Inbox and History pages in.
    func heldSession() throws -> (RuntimeHarness, HeldStore) {
        let (harness, store) = try RuntimeHarness.onHeldStore()
        try harness.start()
        #expect(harness.awaitBackgroundWork { harness.state.inbox.hasLoaded && harness.state.history.hasLoaded })
        return (harness, store)
    }

    /// Waits (a visible marker, not a time) until `count` calls wait at the held store.
    func awaitHeldCalls(_ store: HeldStore, atLeast count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while store.waitingCalls < count {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    @Test func theFirstPagesAreLoadingUntilTheStoreAnswersAndKeysWorkMeanwhile() throws {
        let (harness, store) = try RuntimeHarness.onHeldStore(held: true)
        try harness.start()
        #expect(awaitHeldCalls(store, atLeast: 1))
        #expect(!harness.state.inbox.hasLoaded, "the Inbox says it is loading")
        harness.press(.character("3"))
        #expect(harness.state.selectedTab == .history)
        #expect(!harness.state.history.hasLoaded, "History says it is loading")
        store.release()
        #expect(harness.awaitBackgroundWork { harness.state.inbox.hasLoaded && harness.state.history.hasLoaded })
    }

    @Test func doneAnswersAtOnceAndTheCommitLandsWhenTheStoreAnswers() throws {
        let (harness, store) = try heldSession()
        harness.press(.character("2"), .character("b"))
        harness.type("96385074")
        store.hold()
        harness.press(.control("d"))
        // Done answered without the store: the capture says it is saving.
        #expect(harness.state.presentation.capture?.isCommitting == true)
        #expect(awaitHeldCalls(store, atLeast: 1), "the commit waits at the store, off the loop")
        #expect(harness.runtime.storageCallsPending >= 1)

        // Keys are answered meanwhile. Esc does not discard a capture whose commit may still
        // land: it stays, saving; Ctrl-L and a resize act at once.
        harness.press(.escape)
        harness.type("12")
        #expect(harness.state.presentation.capture?.isCommitting == true)
        #expect(harness.state.presentation.capture?.barcode?.value == "96385074")
        harness.press(.control("l"))
        #expect(harness.runtime.needsRepaint)
        harness.runtime.dispatch(.resized(ScreenSize(rows: 30, columns: 100)))
        #expect(harness.state.size == ScreenSize(rows: 30, columns: 100))

        store.release()
        #expect(harness.awaitBackgroundWork { harness.state.presentation.capture == nil })
        #expect(harness.state.status?.text.hasPrefix("Saved") == true, "\(String(describing: harness.state.status))")
        // The History read that follows the commit comes after it: the record shows.
        #expect(harness.awaitBackgroundWork { harness.runtime.storageCallsPending == 0 && harness.state.history.totalCount == 1 })
        #expect(try harness.database.historyPage(HistoryPageRequest(start: 0, count: 10)).rows.map(\.barcode?.value) == ["96385074"])
    }

    @Test func tabsSearchAndSettingsAnswerWhileTheStoreIsHeld() throws {
        let (harness, store) = try heldSession()
        harness.press(.character("2"), .character("b"))
        harness.type("96385074")
        harness.press(.control("d"))
        #expect(harness.awaitBackgroundWork { harness.state.presentation.capture == nil && harness.runtime.storageCallsPending == 0 })

        store.hold()
        harness.press(.character("3"))
        #expect(harness.state.selectedTab == .history)
        harness.press(.character("/"))
        harness.type("9638")
        #expect(harness.state.presentation.search?.query.text == "9638")
        #expect(harness.state.presentation.search?.isSearching == true, "the sheet says it is searching")
        #expect(awaitHeldCalls(store, atLeast: 1), "the search waits at the store")
        harness.press(.escape, .character("4"))
        #expect(harness.state.selectedTab == .settings)
        let before = harness.state.settings
        harness.press(.enter)
        #expect(harness.state.settings != before, "the setting changes on screen at once")
        harness.press(.character("1"))
        #expect(harness.state.selectedTab == .inbox)

        store.release()
        #expect(harness.awaitBackgroundWork { harness.runtime.storageCallsPending == 0 })
        #expect(try harness.database.settings() == harness.state.settings, "the settings save landed")
        harness.press(.character("/"))
        #expect(harness.awaitBackgroundWork { harness.state.presentation.search?.results.count == 1 }, "search finds the record")
    }

    @Test func aFailedCommitKeepsTheCaptureWithItsPhotosAndItsSentence() throws {
        let (harness, store) = try heldSession()
        let path = try harness.writePNG(named: "shelf.png")
        harness.press(.character("2"), .character("p"))
        harness.type(path)
        harness.press(.enter)
        #expect(harness.awaitBackgroundWork { harness.state.presentation.capture?.photos.count == 1 })
        let sentence = "The database server did not answer within 10 s."
        store.failNextCommit(with: .unreachable(sentence))
        store.hold()
        harness.press(.control("d"))
        #expect(awaitHeldCalls(store, atLeast: 1))
        harness.press(.escape)
        #expect(harness.state.presentation.capture?.isCommitting == true, "Esc discards nothing while saving")
        store.release()
        #expect(harness.awaitBackgroundWork { harness.state.presentation.capture?.isCommitting == false })
        let capture = try #require(harness.state.presentation.capture)
        #expect(capture.notice == sentence)
        #expect(capture.photos.count == 1, "the capture keeps its photo")
        #expect(try harness.database.historyPage(HistoryPageRequest(start: 0, count: 10)).rows.isEmpty, "nothing was written")

        // The staging folder came back with it: Done again saves the photo.
        harness.press(.control("d"))
        #expect(harness.awaitBackgroundWork { harness.state.presentation.capture == nil })
        let rows = try harness.database.historyPage(HistoryPageRequest(start: 0, count: 10)).rows
        #expect(rows.count == 1)
        #expect(rows.first?.photoCount == 1)
    }

    @Test func aFailedCommitWithTheCaptureOnScreenSaysSoAndKeepsIt() throws {
        let (harness, store) = try heldSession()
        harness.press(.character("2"), .character("b"))
        harness.type("96385074")
        store.failNextCommit(with: .unreachable("The database server did not answer within 10 s."))
        harness.press(.control("d"))
        #expect(harness.awaitBackgroundWork { harness.state.presentation.capture?.isCommitting == false })
        #expect(harness.state.presentation.capture?.notice == "The database server did not answer within 10 s.")
        #expect(harness.state.presentation.capture?.barcode?.value == "96385074")
    }

    @Test func theChangeCheckRunsOffTheLoopAndAnswersAsAnAction() throws {
        let (harness, store) = try heldSession()
        harness.runtime.checkForChangesElsewhere(force: true)
        #expect(harness.awaitBackgroundWork { !harness.runtime.isCheckingForChanges }, "the first read sets the baseline")
        // Another session adds a request.
        let other = try RuntimeHarness(folder: harness.owner)
        _ = try other.database.addRequest(title: "Count the pallets", kind: .barcode, now: Date())

        store.hold(changeCounter: true)
        harness.runtime.checkForChangesElsewhere(force: true)
        #expect(harness.runtime.isCheckingForChanges)
        #expect(awaitHeldCalls(store, atLeast: 1), "the read waits at the store, off the loop")
        // Asked again while it waits: the one read in flight stands for it.
        harness.runtime.checkForChangesElsewhere(force: true)
        #expect(harness.runtime.isCheckingForChanges)
        harness.press(.character("3"))
        #expect(harness.state.selectedTab == .history, "keys are answered meanwhile")
        store.release()
        #expect(harness.awaitBackgroundWork { harness.state.inbox.requests.map(\.title) == ["Count the pallets"] })
        #expect(!harness.runtime.isCheckingForChanges)
    }
}
