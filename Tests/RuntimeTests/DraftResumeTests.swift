import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

/// A capture killed at any moment comes back as what it was for: every kind, with and without
/// a request, killed in each phase it can be in with something collected. The next session
/// offers it, Resume brings it back, Done saves it, and the request it answered is answered.
@Suite("Draft resume", .serialized)
struct DraftResumeTests {
    /// Where the capture stands when the process dies.
    enum Moment: String, CaseIterable, Sendable {
        /// A code typed but not yet accepted.
        case typedCode
        /// The code accepted; the kill comes before or after the move on.
        case acceptedCode
        /// A photo added first, the barcode skipped (the case that lost its request).
        case photoFirst
        /// A code and a photo.
        case codeAndPhoto
        /// Note text typed.
        case noteText
        /// Everything collected, on review.
        case review
        /// A batch with scans in it, one of them repeated.
        case batchScans
    }

    static func moments(for kind: CaptureKind) -> [Moment] {
        switch kind {
        case .barcode: [.typedCode, .acceptedCode, .review]
        case .product: [.typedCode, .acceptedCode, .photoFirst, .codeAndPhoto, .review]
        case .photos: [.photoFirst, .review]
        case .note: [.noteText]  // a note goes from its text straight to Done
        case .batch: [.batchScans]
        }
    }

    static let cases: [(CaptureKind, Bool, Moment)] = CaptureKind.allCases.flatMap { kind in
        // A request never asks for a batch.
        (CaptureKind.requestable.contains(kind) ? [false, true] : [false]).flatMap { withRequest in moments(for: kind).map { (kind, withRequest, $0) } }
    }

    static let ean = "4006381333931"

    @Test(arguments: cases)
    func killedCaptureResumesAndAnswersItsRequest(kind: CaptureKind, withRequest: Bool, moment: Moment) throws {
        let first = try RuntimeHarness()
        var requestID: Int64?
        if withRequest {
            requestID = try first.database.addRequest(title: "Shelf 4 \(kind.rawValue)", kind: kind, now: Date())
        }
        try first.start()
        if withRequest {
            #expect(first.state.inbox.requests.count == 1)
            first.press(.enter)  // capture for the request under the cursor
        } else {
            first.press(.character("2"))
            let letter: Character =
                switch kind {
                case .barcode: "b"
                case .photos: "p"
                case .product: "r"
                case .note: "n"
                case .batch: "s"
                }
            first.press(.character(letter))
        }
        let opened = try #require(first.state.presentation.capture)
        #expect(opened.kind == kind)
        try Self.drive(first, kind: kind, to: moment)
        let before = try #require(first.state.presentation.capture)
        first.runtime.finish()  // what a kill leaves: the folder and its draft.json, unlocked
        let folders = first.stagingFolders()
        try #require(folders.count == 1, "staging folders after \(moment): \(folders)")
        let draftFile = first.database.media.stagingDirectory.appendingPathComponent(folders[0]).appendingPathComponent("draft.json")
        let draftText = (try? String(contentsOf: draftFile, encoding: .utf8)) ?? "(none)"
        try #require(draftText.contains("\"\(kind.rawValue)\""), "draft.json: \(draftText)")

        let second = try RuntimeHarness(folder: first.owner)
        try second.start()
        let alert = try #require(second.state.presentation.alert, "no draft offered after \(moment)")
        #expect(alert.message.contains("A \(kind.title.lowercased()) capture"), "\(alert.message)")
        if withRequest { #expect(alert.message.contains("Shelf 4"), "\(alert.message)") }
        second.press(.character("r"))
        let resumed = try #require(second.state.presentation.capture)
        #expect(resumed.kind == kind)
        #expect(resumed.request?.id == requestID)
        #expect(resumed.photos.count == before.photos.count)
        #expect(resumed.barcode == before.barcode)
        #expect(resumed.note.text == before.note.text)
        #expect(resumed.batch.lines == before.batch.lines)
        if before.barcode == nil, kind == .barcode || kind == .product, moment == .typedCode {
            #expect(resumed.barcodeInput.text == Self.ean, "the typed code came back")
            second.press(.enter)
            second.advance(seconds: 2)
        }
        if kind == .product, resumed.photos.isEmpty {
            // A product needs a photo before Done: the resumed capture goes on as any other.
            if second.state.presentation.capture?.phase == .barcode { second.advance(seconds: 2) }
            #expect(second.state.presentation.capture?.phase == .photos)
            try Self.addPhoto(to: second)
        }
        second.press(.control("d"))
        #expect(second.state.presentation == .none, "Done did not close: \(String(describing: second.state.presentation.capture?.notice))")
        let page = try second.database.historyPage(HistoryPageRequest(start: 0, count: 5))
        #expect(page.rows.count == 1)
        #expect(page.rows.first?.kind == kind)
        #expect(page.rows.first?.requestID == requestID)
        if withRequest {
            #expect(try second.database.inbox().pendingCount == 0, "the request is still pending")
        }
        #expect(second.stagingFolders().isEmpty)
    }

    static func addPhoto(to app: RuntimeHarness) throws {
        let path = try app.writePNG(named: "shelf-\(UUID().uuidString.prefix(6)).png")
        let count = app.state.presentation.capture?.photos.count ?? 0
        app.runtime.press(.paste(path))
        #expect(app.awaitBackgroundWork { app.state.presentation.capture?.photos.count == count + 1 })
    }

    static func drive(_ app: RuntimeHarness, kind: CaptureKind, to moment: Moment) throws {
        func addPhoto() throws { try Self.addPhoto(to: app) }
        func acceptCode() {
            app.type(ean)
            app.press(.enter)
        }
        switch moment {
        case .typedCode:
            app.type(ean)
            app.advance(seconds: 2)  // a pause changes nothing: each key was kept as it was typed
        case .acceptedCode:
            acceptCode()
        case .photoFirst:
            if kind == .product { app.press(.control("s")) }
            try addPhoto()
        case .codeAndPhoto:
            acceptCode()
            app.advance(seconds: 2)
            try addPhoto()
        case .noteText:
            app.type("Aisle 7, top shelf")
        case .batchScans:
            for code in [ean, "96385074", ean] {
                app.type(code)
                app.press(.enter)
            }
            #expect(app.state.presentation.capture?.batch.scanCount == 3)
        case .review:
            switch kind {
            case .barcode: acceptCode()
            case .product:
                acceptCode()
                app.advance(seconds: 2)
                try addPhoto()
            case .photos: try addPhoto()
            case .note: app.type("Aisle 7")
            case .batch: break
            }
            app.advance(seconds: 2)
            if kind == .product || kind == .photos { app.press(.enter) }  // empty path field: on to review
            #expect(app.state.presentation.capture?.phase == .review)
        }
    }
}
