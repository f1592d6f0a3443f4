import CaptureMode
import Domain
import Foundation
import Runtime
import SQLiteStorage
import Scanning
import Storage
import TabShell
import Testing

/// The whole loop without a terminal: keys through the key table, the reducer, effects against
/// a real database and real files, and the state that comes back.
@Suite("Runtime loop")
struct RuntimeLoopTests {
    static let ean = "4006381333931"

    @Test("a barcode typed into capture is in History after Done, and in the database")
    func barcodeCaptureCommits() throws {
        let app = try RuntimeHarness()
        try app.start()
        app.press(.character("2"), .character("b"))
        app.type(Self.ean)
        app.press(.enter)
        #expect(app.state.presentation.capture?.barcode?.value == Self.ean)
        app.advance(seconds: 2)  // the auto-advance timer moves on to review
        #expect(app.state.presentation.capture?.phase == .review)
        app.press(.control("d"))
        #expect(app.state.presentation == .none)
        #expect(app.state.history.totalCount == 1)
        let page = try app.database.historyPage(HistoryPageRequest(start: 0, count: 5))
        #expect(page.rows.map { $0.barcode?.value } == [Self.ean])
        #expect(app.state.history.row(at: 0)?.barcode?.value == Self.ean, "History read its first page back")
    }

    @Test("a request added by another process shows in the Inbox after the change check")
    func changeElsewhereReloadsTheInbox() throws {
        let app = try RuntimeHarness()
        try app.start()
        app.runtime.checkForChangesElsewhere(force: true)
        #expect(app.state.inbox.requests.isEmpty)
        let other = try AppDatabase.open(at: app.folder.appendingPathComponent("tabshell.sqlite"))
        _ = try other.addRequest(title: "Scan the shelf", kind: .barcode, now: Date())
        app.runtime.checkForChangesElsewhere(force: true)
        #expect(app.state.inbox.requests.map(\.title) == ["Scan the shelf"])
    }

    @Test("another process's commit wakes the loop, and the check runs then, not at the next interval")
    func aCommitElsewhereWakesTheLoopForACheckAtOnce() throws {
        let app = try RuntimeHarness()
        try app.start()
        let checked = ContinuousClock.now
        app.runtime.checkForChangesElsewhere(now: checked, force: true)
        app.runtime.listenForChanges()
        let other = try AppDatabase.open(at: app.folder.appendingPathComponent("tabshell.sqlite"))
        _ = try other.addRequest(title: "Asked by an agent", kind: .barcode, now: Date())
        // At `checked` the interval's next check is not due: only the store's news makes one.
        let shown = app.awaitBackgroundWork {
            app.runtime.checkForChangesElsewhere(now: checked)
            return app.state.inbox.requests.map(\.title) == ["Asked by an agent"]
        }
        #expect(shown)
    }

    @Test("a photo is copied in the background, staged on disk, and Close deletes it")
    func photoStagedThenClosed() throws {
        let app = try RuntimeHarness()
        try app.start()
        let path = try app.writePNG(named: "shelf.png")
        app.press(.character("2"), .character("p"))
        app.runtime.press(.paste(path))
        #expect(app.awaitBackgroundWork { app.state.presentation.capture?.photos.count == 1 })
        #expect(app.stagingFolders().count == 1)
        app.press(.escape)
        #expect(app.state.presentation.capture?.isConfirmingClose == true, "staged photos are not dropped without asking")
        app.press(.character("y"))
        #expect(app.state.presentation == .none)
        #expect(app.stagingFolders().isEmpty)
        #expect(app.state.history.totalCount == 0)
    }

    @Test("a note's draft is written as it is typed, and offered back by the next session")
    func draftSurvivesTheSession() throws {
        let first = try RuntimeHarness()
        try first.start()
        first.press(.character("2"), .character("n"))
        first.type("Aisle 7")
        first.runtime.finish()
        #expect(first.stagingFolders().count == 1)

        // The next session on the same folder finds the draft and offers it.
        let second = try RuntimeHarness(folder: first.owner)
        try second.start()
        let alert = try #require(second.state.presentation.alert)
        #expect(alert.message.contains("Aisle 7"))
        second.press(.character("r"))
        #expect(second.state.presentation.capture?.note.text == "Aisle 7")
        second.press(.control("d"))
        #expect(second.state.history.totalCount == 1)
        #expect(second.stagingFolders().isEmpty)
    }

    @Test("Ctrl-L asks the front end to repaint, through the key table")
    func ctrlLRepaints() throws {
        let app = try RuntimeHarness()
        try app.start()
        app.runtime.drawn()
        app.press(.control("l"))
        #expect(app.runtime.needsRepaint)
    }

    @Test("a setting changed on screen is stored")
    func settingIsStored() throws {
        let app = try RuntimeHarness()
        try app.start()
        app.press(.character("4"), .down, .enter)  // Require an Inbox request: on
        #expect(app.state.settings.captureGating)
        #expect(try app.database.settings().captureGating)
    }
}
