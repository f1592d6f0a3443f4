import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

// MARK: - Fixtures

let testPreviewTerminal = PreviewTerminal(symbols: .blocks, has256Colors: true, automaticReason: "inside tmux")
let blocks256 = PreviewStyle(symbols: .blocks, colors: .palette256)

func recordPhoto(_ index: Int, record: Int64 = 1) -> RecordPhoto {
    RecordPhoto(
        id: Int64(index + 1), position: index, originalName: "shelf \(index + 1).png", format: .png,
        pixelWidth: 640, pixelHeight: 480, byteSize: 20_000, storedName: "r\(record)-\(index).png"
    )
}

func stagedPhoto(_ index: Int) -> StagedPhoto {
    StagedPhoto(storedName: "s\(index).png", originalName: "shot \(index).png", format: .png, pixelWidth: 64, pixelHeight: 48, byteSize: 900)
}

/// A picture filling `box`, every cell red on blue.
func picture(_ box: CellBox) -> PreviewImage {
    let cell = PreviewImage.Cell(character: "▀", foreground: PreviewColor(rgb: 0xFF0000, index256: 196), background: PreviewColor(rgb: 0x0000FF, index256: 21))
    return PreviewImage(size: box, cells: Array(repeating: cell, count: box.columns * box.rows))!
}

extension AppState {
    /// History showing record 1's detail with `photos` photos loaded, previews on.
    static func detailWithPhotos(_ count: Int = 3, size: ScreenSize = ScreenSize(rows: 24, columns: 80)) -> AppState {
        var state = AppState.loaded(historyTotal: 5, size: size)
        state.previewTerminal = testPreviewTerminal
        _ = state.send([.tabChosen(.history), .listMoved(.end), .rowActivated])
        let row = state.history.detail!.record
        var record = row
        record.kind = .photos
        _ = state.send(.history(.detailLoaded(id: row.id, detail: RecordDetail(record: record, photos: (0..<count).map { recordPhoto($0, record: row.id) }))))
        return state
    }
}

extension Array where Element == AppEffect {
    var previewLoads: [(request: PreviewRequest, ticket: Int)] {
        compactMap { if case let .loadPreview(request, ticket) = $0 { (request, ticket) } else { nil } }
    }

    var previewCancels: [Int] {
        compactMap { if case let .cancelPreview(ticket) = $0 { ticket } else { nil } }
    }
}

// MARK: - Tests

@Suite("Previews: what the model asks for and holds")
struct PreviewTests {
    @Test("without a terminal that can show photos, nothing is asked and screens stay text only")
    func offWithoutATerminal() {
        var state = AppState.loaded(historyTotal: 5)
        let effects = state.send([.tabChosen(.history), .rowActivated])
        #expect(effects.previewLoads.isEmpty)
        #expect(state.previewStyle == nil)
        #expect(state.layout.thumbnail == nil)
    }

    @Test("a record's detail asks for a thumbnail of each photo on screen, once, in order")
    func detailAsksForThumbnails() throws {
        var state = AppState.loaded(historyTotal: 5)
        state.previewTerminal = testPreviewTerminal
        _ = state.send([.tabChosen(.history), .rowActivated])
        let row = try #require(state.history.detail?.record)
        let effects = state.send(.history(.detailLoaded(id: row.id, detail: RecordDetail(record: row, photos: [recordPhoto(0), recordPhoto(1)]))))
        let box = PreviewBoxes.thumbnail(for: state.size)
        #expect(
            effects.previewLoads.map(\.request) == [
                PreviewRequest(source: .stored(storedName: "r1-0.png"), box: box, style: blocks256),
                PreviewRequest(source: .stored(storedName: "r1-1.png"), box: box, style: blocks256),
            ])
        #expect(effects.previewLoads.map(\.ticket) == [1, 2])
        #expect(state.send(.listMoved(.down)).previewLoads.isEmpty, "asked once")
        #expect(box == CellBox(columns: 12, rows: 4))
    }

    @Test("an answer fills its request; a stale ticket or a request not asked for is dropped")
    func answersFillTheirRequest() throws {
        var state = AppState.detailWithPhotos(1)
        let (request, ticket) = try #require(state.previews.wanted.first.map { ($0, 1) })
        _ = state.send(.previewLoaded(request, ticket: ticket + 7, .failed("nope")))
        #expect(state.previews.status(of: request) == .loading(ticket: ticket))
        var other = request
        other.box = CellBox(columns: 3, rows: 1)
        _ = state.send(.previewLoaded(other, ticket: ticket, .image(picture(other.box))))
        #expect(state.previews.status(of: other) == nil)
        _ = state.send(.previewLoaded(request, ticket: ticket, .image(picture(CellBox(columns: 11, rows: 4)))))
        #expect(state.previews.status(of: request) == .ready(picture(CellBox(columns: 11, rows: 4))))
        _ = state.send(.previewLoaded(request, ticket: ticket, .failed("late")))
        #expect(state.previews.status(of: request) == .ready(picture(CellBox(columns: 11, rows: 4))), "a second answer changes nothing")
    }

    @Test("a broken photo keeps its sentence")
    func failureKeepsTheSentence() throws {
        var state = AppState.detailWithPhotos(1)
        let request = try #require(state.previews.wanted.first)
        _ = state.send(.previewLoaded(request, ticket: 1, .failed("This photo is damaged: it ends early.")))
        #expect(state.previews.status(of: request) == .failed("This photo is damaged: it ends early."))
    }

    @Test("leaving the detail cancels what is loading and keeps what is done; coming back shows it at once")
    func leavingCancelsAndKeeps() throws {
        var state = AppState.detailWithPhotos(2)
        let wanted = state.previews.wanted
        _ = state.send(.previewLoaded(wanted[0], ticket: 1, .image(picture(wanted[0].box))))
        let effects = state.send(.history(.backRequested))
        #expect(effects.previewCancels == [2])
        #expect(state.previews.wanted.isEmpty)
        #expect(state.previews.status(of: wanted[0]) == .ready(picture(wanted[0].box)))
        #expect(state.previews.status(of: wanted[1]) == nil)
        let again = state.send(.rowActivated)
        #expect(again.previewLoads.isEmpty, "photos are not known until the detail loads")
        let row = try #require(state.history.detail?.record)
        var record = row
        record.kind = .photos
        let reload = state.send(
            .history(.detailLoaded(id: row.id, detail: RecordDetail(record: record, photos: [recordPhoto(0, record: row.id), recordPhoto(1, record: row.id)]))))
        #expect(reload.previewLoads.map(\.request) == [wanted[1]], "the finished one is held")
    }

    @Test("only so many finished previews are kept off screen")
    func retainedPreviewsAreBounded() {
        var state = AppState.detailWithPhotos(1)
        for size in 30..<60 {
            _ = state.send(.resized(ScreenSize(rows: 24, columns: size + 20)))
            for (request, ticket) in state.previews.entries.compactMap({ key, value -> (PreviewRequest, Int)? in
                if case let .loading(ticket) = value { (key, ticket) } else { nil }
            }) {
                _ = state.send(.previewLoaded(request, ticket: ticket, .image(picture(CellBox(columns: 1, rows: 1)))))
            }
        }
        #expect(state.previews.entries.count <= PreviewsState.retainedCount + state.previews.wanted.count)
    }

    @Test("turning colour off asks for monochrome previews; turning previews off asks for none and drops the thumbnails")
    func settingsChangeTheStyle() throws {
        var state = AppState.detailWithPhotos(1)
        let colorRow = try #require(SettingsRow.allCases.firstIndex(of: .colorEnabled))
        _ = colorRow
        var effects = state.send(.settings(.rowCycled(.colorEnabled, forward: true)))
        #expect(effects.previewLoads.map(\.request.style) == [PreviewStyle(symbols: .blocks, colors: .monochrome)])
        #expect(effects.previewCancels == [1])
        effects = state.send(.settings(.rowCycled(.photoPreviews, forward: true)))
        #expect(state.settings.photoPreviews == .blocks)
        #expect(effects.previewLoads.isEmpty, "blocks draws as automatic does")
        effects = state.send(.settings(.rowCycled(.photoPreviews, forward: true)))
        #expect(state.settings.photoPreviews == .off)
        #expect(state.previewStyle == nil)
        #expect(state.layout.thumbnail == nil)
        #expect(effects.previewCancels == [2])
        #expect(state.previews.wanted.isEmpty)
    }

    @Test("NO_COLOR or fewer than 256 colours draw previews in monochrome; a non-UTF-8 locale in ASCII shades")
    func styleFollowsTheTerminal() {
        var state = AppState(environment: DisplayEnvironment(noColor: true))
        state.previewTerminal = PreviewTerminal(symbols: .blocks, has256Colors: true)
        #expect(state.previewStyle == PreviewStyle(symbols: .blocks, colors: .monochrome))
        state = AppState()
        state.previewTerminal = PreviewTerminal(symbols: .ascii, has256Colors: false)
        #expect(state.previewStyle == PreviewStyle(symbols: .ascii, colors: .monochrome))
    }

    @Test("the terminal's description for Settings and doctor")
    func terminalDescription() {
        let tmux = PreviewTerminal.detect(isUTF8: true, colorCount: 256, environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(tmux.describe(.automatic, usesColor: true) == "automatic (blocks: inside tmux), 256 colours")
        #expect(tmux.describe(.blocks, usesColor: false) == "blocks, monochrome")
        #expect(tmux.describe(.off, usesColor: true) == "off")
        let plain = PreviewTerminal.detect(isUTF8: true, colorCount: 8, environment: [:])
        #expect(plain.describe(.automatic, usesColor: true) == "automatic (blocks: the terminal did not answer), monochrome")
        let ascii = PreviewTerminal.detect(isUTF8: false, colorCount: 256, environment: ["STY": "1.pts"])
        #expect(ascii.describe(.automatic, usesColor: true) == "automatic (ASCII shades: the locale is not UTF-8), 256 colours")
    }

    @Test("capture asks for a thumbnail of each staged photo, on the photos step and on review")
    func captureAsksForStagedThumbnails() {
        var state = AppState.loaded()
        state.previewTerminal = testPreviewTerminal
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos)), .capture(.textTyped("a.png")), .capture(.enterPressed)])
        let effects = state.send(.capture(.photoStaged(stagedPhoto(0))))
        let box = PreviewBoxes.thumbnail(for: state.size)
        #expect(effects.previewLoads.map(\.request) == [PreviewRequest(source: .staged(storedName: "s0.png"), box: box, style: blocks256)])
        #expect(state.send(.capture(.enterPressed)).previewLoads.isEmpty, "review shows the same thumbnails")
        #expect(state.presentation.capture?.phase == .review)
        #expect(state.previews.wanted.count == 1)
        let closing = state.send([.capture(.closeTapped), .capture(.closeConfirmed)])
        #expect(closing.previewCancels == [1])
        #expect(state.previews.wanted.isEmpty)
    }

    @Test("thumbnail boxes follow the screen's height and never take more than a quarter of its width")
    func thumbnailBoxes() {
        #expect(PreviewBoxes.thumbnail(for: ScreenSize(rows: 24, columns: 80)) == CellBox(columns: 12, rows: 4))
        #expect(PreviewBoxes.thumbnail(for: ScreenSize(rows: 12, columns: 40)) == CellBox(columns: 6, rows: 2))
        #expect(PreviewBoxes.thumbnail(for: ScreenSize(rows: 50, columns: 200)) == CellBox(columns: 18, rows: 6))
        #expect(PreviewBoxes.thumbnail(for: ScreenSize(rows: 24, columns: 24)) == CellBox(columns: 6, rows: 4))
        #expect(PreviewBoxes.viewer(for: ScreenSize(rows: 24, columns: 80)) == CellBox(columns: 80, rows: 22))
    }
}

@Suite("Previews: the viewer")
struct PhotoViewerTests {
    @Test("Enter in a record's detail shows the highlighted photo full screen; ↓ highlights the next one")
    func enterOpensTheHighlightedPhoto() throws {
        var state = AppState.detailWithPhotos(3)
        #expect(KeyMap.action(for: .enter, in: state) == .photoViewRequested)
        _ = state.send(try #require(KeyMap.action(for: .down, in: state)))
        #expect(state.history.detail?.photoCursor == 1)
        let effects = state.send(.photoViewRequested)
        let viewer = try #require(state.presentation.viewer)
        #expect(viewer.index == 1)
        #expect(viewer.current.name == "shelf 2.png")
        #expect(viewer.recordID == state.history.detail?.record.id)
        let big = PreviewRequest(source: .stored(storedName: viewer.current.source.storedName), box: CellBox(columns: 80, rows: 22), style: blocks256)
        #expect(effects.previewLoads.map(\.request) == [big], "the viewer's picture alone")
        #expect(effects.previewCancels.count == 3, "the thumbnails under it were still loading")
        #expect(KeyMap.contexts(for: state) == [.photoViewer, .global])
    }

    @Test("← and → go through the record's photos and stop at its ends; each asks for its picture")
    func arrowsStep() throws {
        var state = AppState.detailWithPhotos(3)
        _ = state.send(.photoViewRequested)
        var names: [String] = []
        for key: Key in [.right, .right, .right, .left, .left, .left] {
            let effects = state.send(try #require(KeyMap.action(for: key, in: state)))
            let viewer = try #require(state.presentation.viewer)
            names.append(viewer.position)
            #expect(effects.previewLoads.allSatisfy { $0.request.source == viewer.current.source })
        }
        #expect(names == ["2/3", "3/3", "3/3", "2/3", "1/3", "1/3"])
    }

    @Test("Esc goes back to the detail exactly as it was")
    func escapeGoesBack() throws {
        var state = AppState.detailWithPhotos(3)
        _ = state.send(.listMoved(.down))
        let before = state.history
        _ = state.send([.photoViewRequested, .viewerPhotoStepped(by: 1)])
        _ = state.send(try #require(KeyMap.action(for: .escape, in: state)))
        #expect(state.presentation == .none)
        #expect(state.history == before)
        #expect(state.selectedTab == .history)
    }

    @Test("a resize asks for the picture at the new size")
    func resizeAsksAgain() throws {
        var state = AppState.detailWithPhotos(1)
        _ = state.send(.photoViewRequested)
        let effects = state.send(.resized(ScreenSize(rows: 40, columns: 120)))
        #expect(effects.previewLoads.map(\.request.box) == [CellBox(columns: 120, rows: 38)])
        #expect(state.presentation.viewer != nil)
    }

    @Test("F3 on capture's photos step shows the highlighted staged photo; Esc goes back to capture")
    func captureViewer() throws {
        var state = AppState.loaded()
        state.previewTerminal = testPreviewTerminal
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos))])
        for index in 0..<2 {
            _ = state.send([.capture(.textTyped("x.png")), .capture(.enterPressed), .capture(.photoStaged(stagedPhoto(index)))])
        }
        #expect(KeyMap.action(for: .function(3), in: state) == .photoViewRequested)
        _ = state.send(.capture(.cursorMoved(.up)))
        _ = state.send(try #require(KeyMap.action(for: .function(3), in: state)))
        let viewer = try #require(state.presentation.viewer)
        #expect(viewer.current.source == .staged(storedName: "s0.png"))
        #expect(viewer.position == "1/2")
        _ = state.send(.escapePressed)
        #expect(state.presentation.capture?.phase == .photos)
        #expect(state.presentation.capture?.photos.count == 2)
    }

    @Test("no viewer while a copy runs, with nothing staged, or with previews off")
    func noViewerWhenThereIsNothingToShow() {
        var state = AppState.loaded()
        state.previewTerminal = testPreviewTerminal
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos))])
        #expect(KeyMap.action(for: .function(3), in: state) == nil)
        _ = state.send(.photoViewRequested)
        #expect(state.presentation.viewer == nil)
        _ = state.send([.capture(.textTyped("x.png")), .capture(.enterPressed)])
        _ = state.send(.photoViewRequested)
        #expect(state.presentation.viewer == nil, "a copy is running")

        var off = AppState.detailWithPhotos(2)
        _ = off.send(.settings(.rowCycled(.photoPreviews, forward: false)))
        #expect(off.settings.photoPreviews == .off)
        #expect(KeyMap.action(for: .enter, in: off) == nil)
        _ = off.send(.photoViewRequested)
        #expect(off.presentation.viewer == nil)
        #expect(off.status == StatusMessage("Photo previews are off: turn them on in Settings."))
    }

    @Test("the viewer closes when its record is deleted elsewhere")
    func recordGoneClosesTheViewer() throws {
        var state = AppState.detailWithPhotos(2)
        let id = try #require(state.history.detail?.record.id)
        _ = state.send(.photoViewRequested)
        _ = state.send(.history(.detailLoaded(id: id, detail: nil)))
        #expect(state.presentation == .none)
        #expect(state.history.detail == nil)
    }

    @Test("with thumbnails, ↓ and ↑ move the highlight and scroll as little as shows it; past the ends they scroll")
    func highlightScrolls() throws {
        var state = AppState.detailWithPhotos(4, size: ScreenSize(rows: 16, columns: 60))
        let layout = HistoryDetailLayout(layout: state.layout)
        let detail = try #require(state.history.detail)
        let ranges = layout.photoLineRanges(of: detail)
        #expect(ranges.count == 4)
        for index in 1..<4 {
            _ = state.send(.listMoved(.down))
            let now = try #require(state.history.detail)
            #expect(now.photoCursor == index)
            #expect(now.scrollOffset <= ranges[index].lowerBound && ranges[index].upperBound <= now.scrollOffset + layout.rows, "photo \(index) whole on screen")
        }
        _ = state.send(.listMoved(.home))
        #expect(state.history.detail?.photoCursor == 0)
        #expect(state.history.detail?.scrollOffset == 0)
        _ = state.send(.listMoved(.end))
        #expect(state.history.detail?.photoCursor == 3)
        #expect(state.history.detail?.scrollOffset == layout.maximumScrollOffset(of: try #require(state.history.detail)))
    }

    @Test("thumbnails in a detail: a blank line between photos, their rows beside each photo's name and facts")
    func detailLinesWithThumbnails() throws {
        let state = AppState.detailWithPhotos(2)
        let layout = HistoryDetailLayout(layout: state.layout)
        let detail = try #require(state.history.detail)
        let lines = layout.lines(of: detail, glyphs: .unicode, now: nil)
        let photoLines = lines.filter { $0.thumbnail != nil }
        #expect(photoLines.count == 8)
        #expect(layout.photoLineRanges(of: detail) == [4..<8, 9..<13])
        #expect(lines[4].parts.map(\.text) == ["1. ", "shelf 1.png"])
        #expect(lines[8].parts.isEmpty && lines[8].thumbnail == nil)
    }
}
