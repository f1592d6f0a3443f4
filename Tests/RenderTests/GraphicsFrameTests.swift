import CaptureMode
import Domain
import Foundation
import Render
import SnapshotTesting
import Testing

@testable import TabShell

/// Pictures drawn through a graphics protocol: the frame keeps their cells blank and lists
/// them (`Frame.images`) for the terminal layer, only while every cell is theirs; clicks on a
/// photo open the viewer; Settings says what Automatic chose.
@Suite struct GraphicsFrameTests {
    static let cell = CellPixels(width: 10, height: 20)!
    static let sixelTerminal = PreviewTerminal(symbols: .blocks, has256Colors: true, graphics: .sixel, cellPixels: cell)

    /// `state` with every wanted preview answered by a sixel picture of the box less a column.
    static func answered(_ state: AppState) -> AppState {
        var state = state
        state.previewTerminal = sixelTerminal
        _ = state.send(.redrawRequested)
        for request in state.previews.wanted {
            guard case let .loading(ticket)? = state.previews.status(of: request) else { continue }
            let size = CellBox(columns: max(1, request.box.columns - 1), rows: request.box.rows)
            let picture = PreviewGraphics(graphics: .sixel, sequence: "\u{1B}P0;1;0q\"1;1;\(size.columns * 10);\(size.rows * 20)#0~\u{1B}\\")
            _ = state.send(.previewLoaded(request, ticket: ticket, .image(PreviewImage(size: size, graphics: picture)!)))
        }
        return state
    }

    static func detail(columns: Int = 80, rows: Int = 24) -> AppState {
        var history = Demo.productDetail(photos: PreviewSnapshotTests.recordPhotos())
        history.stack = [HistoryDetailState(record: Demo.historyRows[3], photos: PreviewSnapshotTests.recordPhotos(), photoCursor: 0)]
        return answered(Demo.state(.history, columns: columns, rows: rows, history: history))
    }

    @Test("a record's pictures are listed on the frame where their blank cells are, in sixel")
    func detailListsItsPictures() throws {
        let state = Self.detail()
        #expect(state.previews.wanted.allSatisfy { $0.style == .graphics(.sixel, cell: Self.cell) })
        let frame = Screen.render(state, options: Demo.options)
        #expect(!frame.images.isEmpty)
        for image in frame.images {
            #expect(image.picture.graphics == .sixel)
            for row in image.rows {
                for column in image.column..<(image.column + image.size.columns) {
                    #expect(frame.grid[row, column] == Cell(" ", paint: .reservedForImage), "(\(row), \(column)) is not kept blank")
                }
            }
        }
        // Only pictures of photos on screen, and each once.
        #expect(Set(frame.images.map(\.row)).count == frame.images.count)
        // The text beside is drawn as before: the name of the first photo.
        #expect(frame.find(Demo.photos[0].originalName) != nil)
    }

    @Test("a sheet over the pictures takes them off the frame; closing it puts them back")
    func aSheetCoversThePictures() {
        var state = Self.detail()
        let before = Screen.render(state, options: Demo.options).images
        _ = state.send(.helpRequested)
        let covered = Screen.render(state, options: Demo.options)
        #expect(!before.isEmpty)
        #expect(covered.images.isEmpty, "the help sheet covers the thumbnails")
        _ = state.send(.escapePressed)
        #expect(Screen.render(state, options: Demo.options).images == before)
    }

    @Test("a picture scrolled partly out of view is left off the frame (a sixel cannot be cut); its cells stay blank")
    func aPartlyVisiblePictureIsLeftOff() {
        var state = Self.detail(columns: 80, rows: 14)
        var sawACutPicture = false
        for _ in 0..<12 {
            _ = state.send(.listMoved(.down))
            state = Self.answered(state)
            let frame = Screen.render(state, options: Demo.options)
            var listed = Set<Int>()
            for image in frame.images {
                for row in image.rows {
                    for column in image.column..<(image.column + image.size.columns) { listed.insert(row * 80 + column) }
                }
            }
            for row in 0..<frame.grid.height {
                for column in 0..<frame.grid.width where frame.grid[row, column].paint == .reservedForImage && !listed.contains(row * 80 + column) {
                    sawACutPicture = true
                }
            }
        }
        #expect(sawACutPicture, "scrolling a record with three photos at 80x14 cuts one at the edge")
    }

    @Test("another tab has no pictures")
    func anotherTabHasNone() {
        var state = Self.detail()
        _ = state.send(.tabChosen(.inbox))
        #expect(Screen.render(state, options: Demo.options).images.isEmpty)
    }

    @Test("the viewer's picture is one image, centred, above its facts line")
    func viewerPicture() throws {
        var state = Self.detail()
        _ = state.send(.photoViewRequested)
        state = Self.answered(state)
        let frame = Screen.render(state, options: Demo.options)
        let image = try #require(frame.images.first)
        #expect(frame.images.count == 1)
        #expect(image.rows.upperBound <= frame.grid.height - 2, "off the facts and hint lines (a sixel on the last row scrolls)")
    }

    @Test("a click on a photo's thumbnail or its name opens the viewer on it")
    func clicksOnPhotos() throws {
        let state = Self.detail()
        let frame = Screen.render(state, options: Demo.options)
        let image = try #require(frame.images.last)
        #expect(frame.action(atRow: image.row, column: image.column) == .photoClicked(frame.images.count - 1))
        let name = try #require(frame.find(Demo.photos[0].originalName))
        #expect(frame.action(atRow: name.row, column: name.column) == .photoClicked(0))
    }

    @Test("a click on a staged photo in capture and on review")
    func clicksInCapture() throws {
        for phase in [CapturePhase.photos, .review] {
            let state = PreviewSnapshotTests.answered(Demo.state(columns: 80, rows: 24, presentation: PreviewSnapshotTests.capture(phase: phase)))
            let frame = Screen.render(state, options: Demo.options)
            let clicked = Set(
                frame.hitRegions.compactMap { region -> Int? in
                    if case let .photoClicked(index) = region.action { return index }
                    return nil
                })
            #expect(clicked == [0, 1], "\(phase)")
        }
    }

    @Test("Settings names what Automatic chose")
    func settingsSaysWhatAutomaticChose() {
        var state = Demo.state(.settings, columns: 80, rows: 24)
        state.previewTerminal = Self.sixelTerminal
        let frame = Screen.render(state, options: Demo.options)
        #expect(frame.find("Automatic (sixel)") != nil)
        #expect(frame.find("Photos: automatic (sixel)") != nil)
        state.previewTerminal = PreviewTerminal(symbols: .blocks, has256Colors: true, automaticReason: "inside tmux")
        #expect(Screen.render(state, options: Demo.options).find("Automatic (blocks)") != nil)
        // At 40 columns the value still fits beside its name.
        var narrow = Demo.state(.settings, columns: 40, rows: 12)
        narrow.previewTerminal = Self.sixelTerminal
        for _ in 0..<(SettingsRow.allCases.firstIndex(of: .photoPreviews) ?? 0) { _ = narrow.send(.listMoved(.down)) }
        #expect(Screen.render(narrow, options: Demo.options).find("Automatic (sixel)") != nil)
    }
}
