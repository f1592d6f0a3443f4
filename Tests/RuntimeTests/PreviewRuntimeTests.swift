import CaptureMode
import Domain
import Foundation
import Storage
import TabShell
import Testing

/// Previews made by the runtime on real files: off the loop, delivered through the mailbox,
/// found in the staging folder and then the media folder, cached on disk, broken files named.
@Suite struct PreviewRuntimeTests {
    static let terminal = PreviewTerminal(symbols: .blocks, has256Colors: true)

    /// A 40 x 30 PNG with colour across and down.
    static func writeGradient(_ app: RuntimeHarness, named name: String) throws -> String {
        let bytes = DemoPNG.encode(width: 40, height: 30) { x, y in (UInt8(x * 6), UInt8(y * 8), 90) }
        let url = app.folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func image(_ status: PreviewStatus?) -> PreviewImage? {
        if case let .ready(image)? = status { return image }
        return nil
    }

    @Test("a staged photo's thumbnail is made off the loop: keys are answered meanwhile, the picture comes by the mailbox")
    func stagedThumbnail() throws {
        let app = try RuntimeHarness(previewTerminal: Self.terminal)
        try app.start()
        let path = try Self.writeGradient(app, named: "shelf.png")
        app.press(.character("2"), .character("p"))
        app.runtime.press(.paste(path))
        #expect(app.awaitBackgroundWork { app.state.presentation.capture?.photos.count == 1 })
        let request = try #require(app.state.previews.wanted.first)
        #expect(request.source == .staged(storedName: try #require(app.state.presentation.capture?.photos.first?.storedName)))
        // A key while the preview may still be on its way: answered in this same call.
        app.press(.character("x"))
        #expect(app.state.presentation.capture?.photoPath.text == "x")
        #expect(app.awaitBackgroundWork { Self.image(app.state.previews.status(of: request)) != nil })
        let image = try #require(Self.image(app.state.previews.status(of: request)))
        #expect(request.box.contains(image.size) && !image.size.isEmpty)
        #expect(image.cells.contains { $0.foreground != nil || $0.background != nil }, "256-colour cells")
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: app.folder.appendingPathComponent("cache/previews").path)) ?? []
        #expect(cached.contains { $0.hasSuffix(".preview") })
    }

    @Test("after Done the record's photo previews from the media folder; a file damaged since gets its sentence")
    func committedThumbnailAndABrokenOne() throws {
        let app = try RuntimeHarness(previewTerminal: Self.terminal)
        try app.start()
        let good = try Self.writeGradient(app, named: "good.png")
        let later = try Self.writeGradient(app, named: "later.png")
        app.press(.character("2"), .character("p"))
        for path in [good, later] {
            let count = app.state.presentation.capture?.photos.count ?? 0
            app.runtime.press(.paste(path))
            #expect(app.awaitBackgroundWork { app.state.presentation.capture?.photos.count == count + 1 })
        }
        // A damaged photo is refused when it is staged (DamagedPhotoStagingTests); one damaged on disk
        // after it was saved is what a preview can still meet.
        let damaged = try #require(app.state.presentation.capture?.photos.last)
        app.press(.control("d"))
        #expect(app.state.presentation == .none)
        #expect(app.awaitBackgroundWork { app.state.history.totalCount == 1 })
        let stored = app.database.media.url(forStoredName: damaged.storedName)
        let bytes = try Data(contentsOf: stored)
        try bytes.prefix(bytes.count / 2).write(to: stored)
        app.press(.character("3"), .enter)
        #expect(
            app.awaitBackgroundWork {
                app.state.previews.wanted.count == 2
                    && app.state.previews.wanted.allSatisfy {
                        if case .loading? = app.state.previews.status(of: $0) { false } else { true }
                    }
            })
        let wanted = app.state.previews.wanted
        #expect(wanted.allSatisfy { if case .stored = $0.source { true } else { false } })
        #expect(Self.image(app.state.previews.status(of: wanted[0])) != nil)
        #expect(app.state.previews.status(of: wanted[1]) == .failed("This photo is damaged: it ends early."))

        // The viewer, from the record's detail.
        app.press(.enter)
        let viewer = try #require(app.state.presentation.viewer)
        #expect(viewer.position == "1/2")
        let big = try #require(app.state.previews.wanted.first)
        #expect(app.awaitBackgroundWork { Self.image(app.state.previews.status(of: big)) != nil })
        let picture = try #require(Self.image(app.state.previews.status(of: big)))
        #expect(picture.size.rows > 10, "as large as the screen allows: \(picture.size)")
        app.press(.escape)
        #expect(app.state.presentation == .none)
        #expect(app.state.history.detail != nil)
    }
}
