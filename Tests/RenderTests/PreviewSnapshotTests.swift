import CaptureMode
import Domain
import Foundation
import Render
import SnapshotTesting
import Testing

@testable import TabShell

/// Reviewed screens with photo previews: capture's staged photos with thumbnails, review, a
/// record's detail, the viewer, and the placeholder of a broken photo, at 80x24 and 40x12.
/// The previews are made-up pictures (a diagonal of block characters in two palette colours),
/// so the snapshots show where they go and what is beside them, not libchafa's output.
@Suite struct PreviewSnapshotTests {
    static let terminal = PreviewTerminal(symbols: .blocks, has256Colors: true, automaticReason: "inside tmux")
    static let damaged = "This photo is damaged: it ends early."

    /// A picture of `size` cells: upper halves red, lower halves blue, a diagonal of full blocks.
    static func picture(_ size: CellBox) -> PreviewImage {
        var cells: [PreviewImage.Cell] = []
        for row in 0..<size.rows {
            for column in 0..<size.columns {
                let diagonal = column * size.rows / max(1, size.columns) == row
                cells.append(
                    PreviewImage.Cell(
                        character: diagonal ? "█" : "▀",
                        foreground: PreviewColor(rgb: 0xD70000, index256: 160),
                        background: diagonal ? nil : PreviewColor(rgb: 0x005FD7, index256: 26)
                    ))
            }
        }
        guard let image = PreviewImage(size: size, cells: cells) else { preconditionFailure("a picture of \(size)") }
        return image
    }

    /// `state` with previews on and every preview it shows answered: a picture the photo's
    /// shape (4:3, a bit narrower than the box), or `failing` photos' sentence.
    static func answered(_ state: AppState, failing: Set<String> = [], loading: Set<String> = []) -> AppState {
        var state = state
        state.previewTerminal = terminal
        _ = state.send(.redrawRequested)
        for request in state.previews.wanted where !loading.contains(request.source.storedName) {
            guard case let .loading(ticket)? = state.previews.status(of: request) else { continue }
            let outcome: PreviewOutcome =
                failing.contains(request.source.storedName)
                ? .failed(damaged)
                : .image(picture(CellBox(columns: max(1, request.box.columns - 1), rows: request.box.rows)))
            _ = state.send(.previewLoaded(request, ticket: ticket, outcome))
        }
        return state
    }

    static let staged = [
        StagedPhoto(storedName: "a1.png", originalName: "shelf front.png", format: .png, pixelWidth: 640, pixelHeight: 480, byteSize: 48_210),
        StagedPhoto(storedName: "b2.jpg", originalName: "label.jpg", format: .jpeg, pixelWidth: 4032, pixelHeight: 3024, byteSize: 2_143_210),
    ]

    static func capture(phase: CapturePhase) -> Presentation {
        Demo.capture(request: Demo.requests[1]) { capture in
            capture.photos = staged
            capture.photoCursor = 1
            capture.phase = phase
        }
    }

    static func recordPhotos() -> [RecordPhoto] {
        Demo.photos.enumerated().map { index, photo in
            var photo = photo
            photo.storedName = "r\(index).png"
            return photo
        }
    }

    private func render(_ state: AppState) -> Frame { Screen.render(state, options: Demo.options) }

    // MARK: - Capture

    @Test(arguments: [(80, 24), (40, 12)])
    func captureWithThumbnails(columns: Int, rows: Int) {
        let state = Self.answered(Demo.state(columns: columns, rows: rows, presentation: Self.capture(phase: .photos)))
        let frame = render(state)
        #expect(frame.find("2. label.jpg") != nil)
        assertSnapshot(of: frame, as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func review(columns: Int, rows: Int) {
        let state = Self.answered(Demo.state(columns: columns, rows: rows, presentation: Self.capture(phase: .review)))
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    // MARK: - History

    @Test(arguments: [(80, 24), (40, 12)])
    func detail(columns: Int, rows: Int) {
        var history = Demo.productDetail(photos: Self.recordPhotos())
        history.stack = [HistoryDetailState(record: Demo.historyRows[3], photos: Self.recordPhotos(), photoCursor: 1)]
        let state = Self.answered(Demo.state(.history, columns: columns, rows: rows, history: history), loading: ["r2.png"])
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    // MARK: - Viewer

    @Test(arguments: [(80, 24), (40, 12)])
    func viewer(columns: Int, rows: Int) throws {
        var state = Self.answered(Demo.state(.history, columns: columns, rows: rows, history: Demo.productDetail(photos: Self.recordPhotos())))
        _ = state.send(.photoViewRequested)
        _ = state.send(.viewerPhotoStepped(by: 1))
        state = Self.answered(state)
        let frame = render(state)
        #expect(frame.find("2/3") != nil)
        #expect(frame.find("label close-up.png") != nil || columns < 80, "the name gives way to the facts")
        assertSnapshot(of: frame, as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func viewerWhileThePictureIsMade() {
        var state = Self.answered(Demo.state(.history, history: Demo.productDetail(photos: Self.recordPhotos())))
        _ = state.send(.photoViewRequested)
        let frame = render(state)
        #expect(frame.find("Loading pallet-north-face.jpg…") != nil)
        assertSnapshot(of: frame, as: .gridText)
    }

    // MARK: - Placeholders

    @Test(arguments: [(80, 24), (40, 12)])
    func placeholder(columns: Int, rows: Int) {
        var history = Demo.productDetail(photos: Self.recordPhotos())
        history.stack = [HistoryDetailState(record: Demo.historyRows[3], photos: Self.recordPhotos())]
        let detail = render(Self.answered(Demo.state(.history, columns: columns, rows: rows, history: history), failing: ["r0.png"]))
        assertSnapshot(of: detail, as: .gridText, named: "detail-\(columns)x\(rows)")

        let capture = render(Self.answered(Demo.state(columns: columns, rows: rows, presentation: Self.capture(phase: .photos)), failing: ["b2.jpg"]))
        assertSnapshot(of: capture, as: .gridText, named: "capture-\(columns)x\(rows)")

        var viewing = Self.answered(Demo.state(.history, columns: columns, rows: rows, history: history), failing: ["r0.png"])
        _ = viewing.send(.photoViewRequested)
        viewing = Self.answered(viewing, failing: ["r0.png"])
        let viewer = render(viewing)
        #expect(viewer.find(Self.damaged) != nil || columns < 50, "the sentence in the viewer")
        assertSnapshot(of: viewer, as: .gridText, named: "viewer-\(columns)x\(rows)")
    }

    // MARK: - Cells

    @Test("preview cells carry their colours; ASCII mode draws no character outside ASCII")
    func previewCellsKeepTheirColours() throws {
        let state = Self.answered(Demo.state(presentation: Self.capture(phase: .photos)))
        let frame = render(state)
        let painted = frame.grid.cells.filter { $0.paint != nil }
        #expect(painted.count >= 2 * 11 * 4 - 8)
        #expect(painted.contains { $0.paint == CellPaint(foreground: PreviewColor(rgb: 0xD70000, index256: 160), background: PreviewColor(rgb: 0x005FD7, index256: 26)) })

        let ascii = Screen.render(state, options: Demo.plainOptions)
        #expect(ascii.grid.cells.allSatisfy { $0.text.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test("a code read from a staged photo is listed under its facts, beside the thumbnail")
    func codesFromAPhoto() {
        let presentation = Demo.capture(request: Demo.requests[1]) { capture in
            capture.photos = Self.staged
            capture.phase = .photos
            capture.photoCodes = ["a1.png": [Barcode(value: "4006381333931", symbology: .ean13)]]
        }
        let frame = render(Self.answered(Demo.state(presentation: presentation)))
        let row = frame.find("PNG · 640×480")?.row
        #expect(row != nil)
        #expect(frame.find("EAN-13 4006381333931")?.row == row.map { $0 + 1 })
    }

    @Test("with previews off the screens are exactly the text-only ones")
    func offIsTextOnly() {
        var state = Demo.state(presentation: Self.capture(phase: .photos))
        let textOnly = render(state)
        state.previewTerminal = Self.terminal
        state.settings.photoPreviews = .off
        #expect(render(state) == textOnly)
    }
}
