import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

/// The real runner and staging folder: Done with a code still in the field leaves no
/// draft behind to be resumed into a duplicate; a typed photo path, and a photo being copied in
/// when the session ends, come back at the next start.
@Suite struct DraftAfterDoneRuntimeTests {
    /// Done with the code typed and not entered, then the session ends; the next start.
    func doneThenRestart(batch: Bool, fromRequest: Bool) throws -> RuntimeHarness {
        let first = try RuntimeHarness()
        if fromRequest { _ = try first.database.addRequest(title: "Shelf 4", kind: batch ? .batch : .barcode, now: Date()) }
        try first.start()
        if fromRequest {
            first.press(.enter)
        } else {
            first.press(.character("2"), .character(batch ? "s" : "b"))
        }
        #expect(first.state.presentation.capture?.kind == (batch ? .batch : .barcode))
        if batch {
            first.type("96385074")
            first.press(.enter)
        }
        first.type("4006381333931")
        first.press(.control("d"))
        #expect(first.state.status?.text.hasPrefix("Saved") == true, "\(String(describing: first.state.status))")
        first.runtime.finish()
        #expect(first.stagingFolders() == [], "no draft is left behind")

        let second = try RuntimeHarness(folder: first.owner)
        try second.start()
        #expect(second.state.presentation.alert == nil, "nothing is offered back")
        #expect(try second.database.historyPage(HistoryPageRequest(start: 0, count: 10)).rows.count == 1, "one record, no duplicate")
        return second
    }

    /// (A batch cannot be asked for by a request.)
    @Test(arguments: [(false, false), (true, false), (false, true)])
    func doneWithTheCodeInTheFieldLeavesNoDraft(batch: Bool, fromRequest: Bool) throws {
        _ = try doneThenRestart(batch: batch, fromRequest: fromRequest)
    }

    @Test func aTypedPhotoPathComesBackAfterTheSessionEnds() throws {
        let first = try RuntimeHarness()
        try first.start()
        let added = try first.writePNG(named: "one.png")
        first.press(.character("2"), .character("p"))
        first.type(added)
        first.press(.enter)
        #expect(first.awaitBackgroundWork { first.state.presentation.capture?.photos.count == 1 })
        first.type("/tmp/x/shelf-two.png")
        first.runtime.finish()  // a hang-up: no timer fires first

        let second = try RuntimeHarness(folder: first.owner)
        try second.start()
        let alert = try #require(second.state.presentation.alert, "the draft is offered")
        #expect(alert.message.contains("1 photo, a typed photo path"), "\(alert.message)")
        second.press(.character("r"))
        #expect(second.state.presentation.capture?.photoPath.text == "/tmp/x/shelf-two.png")
        #expect(second.state.presentation.capture?.photos.count == 1)
    }

    /// Enter, then the session ends at once: the copy is cancelled or has just finished. Either
    /// the photo or its path comes back, never neither, never both.
    @Test func aPhotoBeingCopiedWhenTheSessionEndsComesBack() throws {
        let first = try RuntimeHarness()
        try first.start()
        let path = try first.writePNG(named: "shelf one.png")
        first.press(.character("2"), .character("p"))
        first.type(path)
        first.press(.enter)
        first.runtime.finish()

        let second = try RuntimeHarness(folder: first.owner)
        try second.start()
        #expect(second.state.presentation.alert != nil, "the draft is offered")
        second.press(.character("r"))
        let capture = try #require(second.state.presentation.capture)
        let kept = (capture.photos.count, capture.photoPath.text)
        #expect(kept == (1, "") || kept == (0, path), "\(kept)")
    }
}
