import CaptureMode
import Domain
import Foundation
import Runtime
import Storage
import TabShell
import Testing

/// What a `tabshell serve` session adds to the app: who captures, photos only from
/// the person's uploads, and coming back to exactly what one had.
@Suite("Served sessions")
struct ServedSessionTests {
    /// A data folder with ana's uploads (`shelf.png`, `label.png`) and a file outside them.
    final class Fixture {
        let folder = try! RuntimeHarness.Folder()
        let uploads: UploadFolder
        let outside: String

        init() throws {
            uploads = UploadFolder(path: folder.url.appendingPathComponent("people/ana/uploads").path)
            try uploads.prepare()
            for name in ["shelf.png", "label.png"] {
                let bytes = DemoPNG.encode(width: 4, height: 3) { x, y in (UInt8(x * 60), UInt8(y * 80), 128) }
                try Data(bytes).write(to: URL(fileURLWithPath: uploads.path + "/" + name))
            }
            outside = folder.url.appendingPathComponent("secret.png").path
            try Data(DemoPNG.encode(width: 2, height: 2) { _, _ in (0, 0, 0) }).write(to: URL(fileURLWithPath: outside))
            _ = symlink(outside, uploads.path + "/link.png")
        }

        func session(_ person: String, uploads: UploadFolder? = nil) throws -> RuntimeHarness {
            try RuntimeHarness(folder: folder, person: person, uploads: uploads ?? self.uploads)
        }
    }

    @Test func photosComeOnlyFromTheUploadsByName() throws {
        let f = try Fixture()
        let app = try f.session("ana")
        try app.start()
        app.press(.character("2"), .character("p"))
        #expect(app.state.presentation.capture?.config.photosFromUploads == true)

        // Tab on an empty field offers the uploads, and only them (no link, no folder).
        app.press(.tab)
        #expect(app.state.presentation.capture?.photoMessage?.text.contains("label.png") == true)
        #expect(app.state.presentation.capture?.photoMessage?.text.contains("link.png") == false)
        for path in ["/etc/", "../", "~/", "./"] {
            app.press(.control("u"))
            app.type(path)
            app.press(.tab)
            #expect(app.state.presentation.capture?.photoPath.text == path, "\(path) must not complete")
        }
        // Neither a path out nor a link is accepted; a name is.
        for refused in [f.outside, "../../secret.png", "link.png", "/etc/passwd"] {
            app.runtime.press(.paste(refused))
            app.awaitBackgroundWork(until: { app.state.presentation.capture?.copy == nil }, timeout: 2)
            #expect(app.state.presentation.capture?.photos.isEmpty == true, "\(refused) was staged")
        }
        app.press(.control("u"))
        app.type("sh")
        app.press(.tab)
        #expect(app.state.presentation.capture?.photoPath.text == "shelf.png")
        app.press(.enter)
        #expect(app.awaitBackgroundWork { app.state.presentation.capture?.photos.count == 1 })
        app.press(.control("d"))
        #expect(app.state.presentation == .none)
        let page = try app.database.historyPage(HistoryPageRequest(start: 0, count: 5))
        #expect(page.rows.map(\.capturedBy) == ["ana"])
    }

    @Test func aDraftIsOfferedOnlyToItsOwner() throws {
        let f = try Fixture()
        do {
            let ana = try f.session("ana")
            try ana.start()
            ana.press(.character("2"), .character("n"))
            ana.type("half a note")
            ana.runtime.finish()  // what a dropped link leaves
        }
        let ben = try f.session("ben", uploads: UploadFolder(path: f.folder.url.appendingPathComponent("people/ben/uploads").path))
        try ben.start()
        #expect(ben.state.presentation.alert == nil, "ben is offered ana's draft")
        ben.runtime.finish()
        let ana = try f.session("ana")
        try ana.start()
        #expect(ana.state.presentation.alert?.message.contains("half a note") == true)
    }

    @Test func comingBackRestoresTabsStackSheetAndCaptureWithItsPhotos() throws {
        let f = try Fixture()
        let first = try f.session("ana")
        let older = try first.database.commitCapture(CaptureSubmission(kind: .note, note: "older"), now: Date(timeIntervalSinceNow: -60))
        _ = try first.database.commitCapture(CaptureSubmission(kind: .note, note: "newer"), now: Date())
        try first.start()
        // History: the second record's detail on the stack; Settings' cursor moved; then capture.
        first.press(.character("4"), .down, .down, .character("3"), .down, .enter)
        #expect(first.state.history.stack.map(\.record.id) == [older])
        first.press(.character("2"), .character("p"))
        first.type("shelf.png")
        first.press(.enter)
        #expect(first.awaitBackgroundWork { first.state.presentation.capture?.photos.count == 1 })
        first.type("lab")
        let before = first.state
        first.runtime.finish()
        let saved = first.state.sessionSnapshot(savedAt: Date(), stagingID: first.runtime.stagingIDAtFinish)
        #expect(saved.capture?.stagingID != nil)
        let decoded = try JSONDecoder().decode(SessionSnapshot.self, from: JSONEncoder().encode(saved))
        #expect(decoded == saved)

        let second = try f.session("ana")
        second.runtime.start(recovery: try second.database.recover(now: Date()), resuming: decoded, message: "Welcome back.")
        let capture = try #require(second.state.presentation.capture, "the capture did not come back")
        #expect(capture.phase == .photos)
        #expect(capture.photos == before.presentation.capture?.photos)
        #expect(capture.photoPath.text == "lab")
        #expect(second.state.presentation.alert == nil, "its draft must not be offered as well")
        #expect(second.state.selectedTab == before.selectedTab)
        #expect(second.state.history.stack.map(\.record.id) == [older])
        #expect(second.state.history.detail?.photos != nil, "the detail was read again")
        #expect(second.state.settingsScreen.list == before.settingsScreen.list)
        #expect(second.state.history.list.cursor == before.history.list.cursor)
        #expect(second.state.status?.text == "Welcome back.")

        // Done commits the photo staged before the drop, as ana, and lands on History's detail.
        second.press(.control("u"))
        second.press(.control("d"))
        #expect(second.state.presentation == .none)
        let page = try second.database.historyPage(HistoryPageRequest(start: 0, count: 5))
        #expect(page.rows.count == 3)
        #expect(page.rows.first?.capturedBy == "ana")
        #expect(try second.database.recordDetail(id: page.rows[0].id)?.photos.count == 1)
        #expect(second.stagingFolders().isEmpty)
    }

    @Test func anOpenSearchSheetComesBack() throws {
        let f = try Fixture()
        let first = try f.session("ana")
        _ = try first.database.commitCapture(CaptureSubmission(kind: .note, note: "pallet one"), now: Date())
        try first.start()
        first.press(.character("/"))
        first.type("pal")
        first.runtime.finish()
        let saved = first.state.sessionSnapshot(savedAt: Date(), stagingID: nil)

        let second = try f.session("ana")
        second.runtime.start(recovery: nil, resuming: saved)
        let search = try #require(second.state.presentation.search)
        #expect(search.query.text == "pal")
        #expect(search.results.map(\.note) == ["pallet one"])
    }
}
