import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// The mouse wheel moves what is under the pointer (the model decides, from the
/// cell), a click selects and a second click opens, and `y`/`Y` copy a History record.
@Suite("Shell: the wheel, clicks and copying")
struct WheelAndCopyTests {
    static let size = ScreenSize(rows: 24, columns: 80)
    /// A cell inside the content area at 80x24 with the bar at the bottom (rows 2..<21).
    static let overContent = (row: 10, column: 20)

    static func down(_ row: Int = overContent.row, _ column: Int = overContent.column) -> AppAction {
        .wheelTurned(WheelTurn(.down, row: row, column: column))
    }

    static func up(_ row: Int = overContent.row, _ column: Int = overContent.column) -> AppAction {
        .wheelTurned(WheelTurn(.up, row: row, column: column))
    }

    static func manyRequests(_ count: Int = 30) -> [InboxRequest] { (1...count).map { request(Int64($0)) } }

    // MARK: - The wheel on the tabs

    @Test("the wheel over the Inbox moves its highlight, down and back up")
    func wheelMovesTheInbox() {
        var state = AppState.loaded(requests: Self.manyRequests())
        _ = state.send([Self.down(), Self.down(), Self.down()])
        #expect(state.inbox.list.cursor == 3)
        _ = state.send(Self.up())
        #expect(state.inbox.list.cursor == 2)
    }

    @Test("the wheel over History's list moves its highlight and reads the next page when it leaves the window")
    func wheelMovesHistory() {
        var state = AppState.loaded(historyTotal: 500)
        _ = state.send(.tabChosen(.history))
        var reads: [HistoryPageRequest] = []
        for _ in 0..<70 {
            let effects = state.send(Self.down())
            reads += effects.historyRequests
            for request in effects.historyRequests { _ = state.send(.history(.pageLoaded(page(for: request, total: 500)))) }
        }
        #expect(state.history.list.cursor == 70)
        #expect(!reads.isEmpty, "scrolling past the loaded window asks for more rows")
    }

    @Test("the wheel over a record's detail scrolls its text")
    func wheelScrollsADetail() {
        var state = AppState.detailWithPhotos(12, size: ScreenSize(rows: 12, columns: 80))
        state.previewTerminal = nil  // text only: every move scrolls
        let row = state.contentArea.lowerBound + 1
        _ = state.send([Self.down(row), Self.down(row)])
        #expect(state.history.detail?.scrollOffset == 2)
        _ = state.send(Self.up(row))
        #expect(state.history.detail?.scrollOffset == 1)
    }

    @Test("the wheel over Settings moves its highlight")
    func wheelMovesSettings() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.settings), Self.down(), Self.down()])
        #expect(state.settingsScreen.list.cursor == 2)
    }

    @Test("over the heading, the hint line or the tab bar nothing moves; over the content's first and last rows the list does")
    func outsideTheContentNothingMoves() {
        let state = AppState.loaded(requests: Self.manyRequests())
        let area = state.contentArea
        #expect(area == 2..<21, "80x24, the bar at the bottom: heading and rule above, hints, rule and bar below")
        for row in [0, 1, area.upperBound, area.upperBound + 1, 23] {
            var moved = state
            _ = moved.send(Self.down(row, 5))
            #expect(moved.inbox.list.cursor == 0, "row \(row) is not the list's")
        }
        for row in [area.lowerBound, area.upperBound - 1] {
            var moved = state
            _ = moved.send(Self.down(row, 5))
            #expect(moved.inbox.list.cursor == 1, "row \(row) is the list's")
        }
    }

    @Test("with the bar on top, or minimized, the content area moves with it")
    func contentAreaFollowsTheBar() {
        var settings = Settings.fixed
        settings.tabBarPosition = .top
        var state = AppState.loaded(requests: Self.manyRequests(), settings: settings)
        #expect(state.contentArea == 4..<23)
        _ = state.send([Self.down(3, 5), Self.down(23, 5)])
        #expect(state.inbox.list.cursor == 0, "row 3 is the heading's rule, row 23 the hint line")
        _ = state.send(Self.down(4, 5))
        #expect(state.inbox.list.cursor == 1)
        settings.tabBarPosition = .bottom
        settings.tabBarMinimizesOnScroll = true
        var minimizing = AppState.loaded(requests: Self.manyRequests(), settings: settings)
        for _ in 0..<20 { _ = minimizing.send(Self.down()) }
        #expect(minimizing.isTabBarMinimized, "the wheel minimizes the bar as ↓ does once the list scrolls")
        #expect(minimizing.contentArea == 2..<22)
    }

    // MARK: - What is presented takes the wheel

    @Test("with help over the Inbox, the wheel scrolls help wherever the pointer is, and the list behind stays")
    func helpTakesTheWheel() throws {
        var state = AppState.loaded(requests: Self.manyRequests(), size: ScreenSize(rows: 12, columns: 80))
        _ = state.send(.helpRequested)
        for row in [0, 5, 11] { _ = state.send(Self.down(row, 40)) }
        guard case let .sheet(.help(help)) = state.presentation else {
            Issue.record("help is not showing")
            return
        }
        #expect(help.scrollOffset == 3)
        #expect(state.inbox.list.cursor == 0, "the list behind the sheet did not move")
    }

    @Test("with search open, the wheel moves its results, not History behind it")
    func searchTakesTheWheel() {
        var state = AppState.loaded(historyTotal: 50)
        _ = state.send([.tabChosen(.history), .searchRequested, .search(.edited(.typed("4006")))])
        let rows = (0..<10).map { historyRow(at: $0, total: 10) }
        _ = state.send(.search(.resultsLoaded(query: "4006", rows: rows)))
        _ = state.send([Self.down(), Self.down()])
        #expect(state.presentation.search?.list.cursor == 2)
        #expect(state.history.list.cursor == 0)
    }

    @Test("an alert keeps everything still under the wheel")
    func alertKeepsStill() {
        var state = AppState.loaded(historyTotal: 50)
        _ = state.send([.tabChosen(.history), .history(.deleteRequested)])
        #expect(state.presentation.alert != nil)
        let before = state
        _ = state.send([Self.down(), Self.up(0, 0)])
        #expect(state == before)
    }

    @Test("capture's kind picker moves with the wheel")
    func capturePickerMoves() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), Self.down(), Self.down(), Self.down(), Self.up()])
        #expect(state.presentation.capture?.pickerCursor == 2)
    }

    @Test("capture's staged photos move with the wheel")
    func captureStagedPhotosMove() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos))])
        for index in 0..<3 {
            _ = state.send([.capture(.textTyped("x.png")), .capture(.enterPressed), .capture(.photoStaged(stagedPhoto(index)))])
        }
        #expect(state.presentation.capture?.photoCursor == 2)
        _ = state.send([Self.up(), Self.up()])
        #expect(state.presentation.capture?.photoCursor == 0)
        _ = state.send(Self.down())
        #expect(state.presentation.capture?.photoCursor == 1)
    }

    @Test("capture's list of keys scrolls with the wheel on a short screen")
    func captureKeysScroll() {
        var state = AppState.loaded(size: ScreenSize(rows: 10, columns: 60))
        _ = state.send([.tabChosen(.create), .capture(.keysToggled), Self.down(3, 3), Self.down(3, 3)])
        #expect(state.presentation.capture?.keysScrollOffset == 2)
    }

    @Test("in the photo viewer the wheel steps to the next and previous photo")
    func viewerSteps() throws {
        var state = AppState.detailWithPhotos(3)
        _ = state.send([.photoViewRequested, Self.down(), Self.down()])
        #expect(try #require(state.presentation.viewer).position == "3/3")
        _ = state.send(Self.up())
        #expect(try #require(state.presentation.viewer).position == "2/3")
        #expect(state.history.detail?.scrollOffset == 0, "the detail behind did not scroll")
    }

    @Test("below the minimum size the wheel does nothing")
    func tooSmall() {
        var state = AppState.loaded(requests: Self.manyRequests())
        _ = state.send(.resized(ScreenSize(rows: 6, columns: 80)))
        let before = state
        _ = state.send(Self.down(3, 3))
        #expect(state == before)
    }

    // MARK: - Clicks

    @Test("a click on a History row highlights it; a second click on it opens the record")
    func clickSelectsThenOpens() {
        var state = AppState.loaded(historyTotal: 20)
        _ = state.send([.tabChosen(.history), .rowClicked(4)])
        #expect(state.history.list.cursor == 4)
        #expect(state.history.stack.isEmpty)
        let effects = state.send(.rowClicked(4))
        #expect(state.history.detail?.record.id == historyRow(at: 4, total: 20).id)
        #expect(effects.contains(.loadRecordDetail(historyRow(at: 4, total: 20).id)))
    }

    @Test("a click on an Inbox row highlights it; a second click on it starts a capture for it")
    func inboxClickSelectsThenOpens() {
        var state = AppState.loaded(requests: Self.manyRequests(5))
        _ = state.send(.rowClicked(3))
        #expect(state.inbox.list.cursor == 3)
        #expect(state.presentation == .none)
        _ = state.send(.rowClicked(3))
        #expect(state.presentation.capture?.request?.id == 4)
    }

    // MARK: - Copy

    static func history(_ rows: [HistoryRow]) -> AppState {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.history))
        _ = state.send(.history(.pageLoaded(HistoryPage(start: 0, rows: rows, totalCount: rows.count, mode: .all))))
        return state
    }

    static func row(_ id: Int64, kind: CaptureKind, code: String? = nil, note: String? = nil) -> HistoryRow {
        HistoryRow(
            id: id, kind: kind, barcode: code.map { Barcode(value: $0, symbology: .ean13) }, note: note, requestID: nil, requestTitle: nil,
            createdAt: epoch)
    }

    @Test("y on the highlighted record copies its code and says so, by the key table")
    func yCopiesTheCode() throws {
        var state = Self.history([Self.row(2, kind: .barcode, code: "4006381333931"), Self.row(1, kind: .note, note: "Shelf B\nsecond line")])
        let action = try #require(KeyMap.action(for: .character("y"), in: state))
        #expect(action == .history(.copyRequested(.code)))
        let effects = state.send(action)
        #expect(effects.contains(.copyToClipboard("4006381333931")))
        #expect(state.status == StatusMessage("Copied 4006381333931", kind: .success))
    }

    @Test("y on a note copies its text whole; the status line shows it on one printable line")
    func yCopiesANote() throws {
        let note = "Shelf B\u{1B}]0;owned\u{07}\nsecond line"
        var state = Self.history([Self.row(1, kind: .note, note: note)])
        let effects = state.send(.history(.copyRequested(.code)))
        #expect(effects.contains(.copyToClipboard(note)), "the clipboard gets the text as it is")
        let status = try #require(state.status?.text)
        #expect(!status.unicodeScalars.contains { Sanitizer.isUnsafe($0) }, "the preview is sanitized: \(status)")
        #expect(status.hasPrefix("Copied Shelf B"))
    }

    @Test("y in a record's detail copies that record's code; a batch's codes come from its loaded lines")
    func yInTheDetail() {
        var state = Self.history([Self.row(3, kind: .batch), Self.row(2, kind: .barcode, code: "96385074")])
        #expect(state.send(.history(.copyRequested(.code))).contains { if case .copyToClipboard = $0 { true } else { false } } == false)
        #expect(state.status?.text.contains("Open the batch") == true)
        _ = state.send(.rowActivated)
        let lines = [BatchLine(barcode: validEAN13, quantity: 2), BatchLine(barcode: Barcode(value: "96385074", symbology: .ean8))]
        _ = state.send(.history(.detailLoaded(id: 3, detail: RecordDetail(record: Self.row(3, kind: .batch), photos: [], lines: lines))))
        #expect(state.send(.history(.copyRequested(.code))).contains(.copyToClipboard("4006381333931\n96385074")))
    }

    @Test("Y asks the runner for the record's export line, and copies the answer with its size on the status line")
    func shiftYCopiesTheExportLine() throws {
        var state = Self.history([Self.row(7, kind: .barcode, code: "4006381333931")])
        #expect(KeyMap.action(for: .character("Y"), in: state) == .history(.copyRequested(.exportLine)))
        #expect(state.send(.history(.copyRequested(.exportLine))) == [.loadExportLine(7)])
        let line = #"{"id":7,"kind":"barcode"}"#
        let effects = state.send(.history(.exportLineLoaded(id: 7, line: line)))
        #expect(effects.contains(.copyToClipboard(line)))
        #expect(state.status == StatusMessage("Copied record #7 as JSON (25 bytes)", kind: .success))
        _ = state.send(.history(.exportLineLoaded(id: 7, line: nil)))
        #expect(state.status?.kind == .error)
    }

    @Test("past the bound nothing is copied and the status line says how long it was")
    func tooLongToCopy() {
        let limitBytes = ClipboardCopy.maximumEncodedBytes / 4 * 3
        var fits = Self.history([Self.row(1, kind: .note, note: String(repeating: "a", count: limitBytes))])
        #expect(fits.send(.history(.copyRequested(.code))).contains { if case .copyToClipboard = $0 { true } else { false } })
        var state = Self.history([Self.row(1, kind: .note, note: String(repeating: "a", count: limitBytes + 1))])
        let effects = state.send(.history(.copyRequested(.code)))
        #expect(!effects.contains { if case .copyToClipboard = $0 { true } else { false } })
        #expect(state.status == StatusMessage("Too long to copy (74 KB).", kind: .error))
    }

    @Test("y and Y act only on History: elsewhere they are not History's, and over a sheet nothing is copied")
    func copyOnlyOnHistory() {
        var state = AppState.loaded(requests: Self.manyRequests(3), historyTotal: 3)
        #expect(KeyMap.action(for: .character("y"), in: state) != .history(.copyRequested(.code)))
        _ = state.send([.tabChosen(.history), .helpRequested])
        #expect(state.send(.history(.copyRequested(.code))) == [])
    }

    @Test("the status preview is one line of at most 40 columns")
    func previewIsShort() {
        let preview = ClipboardCopy.preview(of: String(repeating: "漢", count: 50))
        #expect(TextWidth.of(preview) <= ClipboardCopy.previewColumns)
        #expect(preview.hasSuffix("\u{2026}"))
        #expect(ClipboardCopy.encodedLength(ofBytes: 0) == 0)
        #expect(ClipboardCopy.encodedLength(ofBytes: 4) == 8)
    }
}
