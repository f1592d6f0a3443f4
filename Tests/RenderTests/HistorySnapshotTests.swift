import CaptureMode
import Domain
import SnapshotTesting
import Testing

@testable import Render
@testable import TabShell

/// Reviewed screens of History's browse modes, the record detail with photos, the search sheet,
/// the delete and Clear all questions and the Inbox highlight, at 80x24 and 40x12.
@Suite struct HistorySnapshotTests {
    private func render(_ state: AppState, _ options: RenderOptions = Demo.options) -> Frame {
        Screen.render(state, options: options)
    }

    // MARK: - Browse modes

    @Test(arguments: [(80, 24), (40, 12)])
    func byRequest(columns: Int, rows: Int) {
        let state = Demo.state(.history, columns: columns, rows: rows, history: Demo.groupedHistory(.byRequest, cursor: 2))
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func byKind(columns: Int, rows: Int) {
        let state = Demo.state(.history, columns: columns, rows: rows, history: Demo.groupedHistory(.byKind, cursor: 1))
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func byKindScrolledIntoAGroupNamesItOnTheTopRow() {
        let state = Demo.state(.history, columns: 80, rows: 12, history: Demo.groupedHistory(.byKind, cursor: 9, scrollOffset: 3))
        let frame = render(state)
        #expect(frame.find("Barcode", inRow: 3) != nil, "the group's name on the first visible row")
        #expect(frame.find("Barcode", inRow: 4) == nil, "and not again on the next row of the same group")
        assertSnapshot(of: frame, as: .gridText)
    }

    @Test func modeSwitchWhileTheFirstPageLoads() {
        // `b` was pressed: the window still holds the old order, so rows show as loading.
        var history = Demo.history(cursor: 0)
        history.browseMode = .byRequest
        let frame = render(Demo.state(.history, columns: 40, rows: 12, history: history))
        #expect(frame.find("By request") != nil)
        #expect(frame.find("4006381333931") == nil, "rows of the old order are not shown under the new one")
        assertSnapshot(of: frame, as: .gridText)
    }

    // MARK: - Detail

    @Test(arguments: [(80, 24), (40, 12)])
    func detailWithPhotos(columns: Int, rows: Int) {
        let state = Demo.state(.history, columns: columns, rows: rows, history: Demo.productDetail())
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func detailScrolledToItsEnd() throws {
        var state = Demo.state(.history, columns: 40, rows: 12, history: Demo.productDetail())
        var detail = try #require(state.history.detail)
        detail.scrollOffset = HistoryDetailLayout(layout: state.layout).maximumScrollOffset(of: detail)
        state.history.stack = [detail]
        assertSnapshot(of: render(state), as: .gridText)
    }

    @Test func detailWhilePhotosLoadAndInASCII() {
        let loading = Demo.state(.history, columns: 80, rows: 24, history: Demo.productDetail(photos: nil))
        assertSnapshot(of: render(loading), as: .gridText, named: "loading")
        let ascii = Demo.state(.history, columns: 80, rows: 24, history: Demo.productDetail())
        assertSnapshot(of: render(ascii, Demo.plainOptions), as: .gridText, named: "ascii")
    }

    /// The reducer scrolls by `HistoryDetailLayout`'s count; the view must draw exactly that many lines.
    @Test func theDetailDrawsTheLinesTheReducerCounts() {
        let details =
            Gallery.hostileStates().compactMap(\.state.history.detail)
            + Gallery.states().compactMap(\.state.history.detail)
            + [Demo.productDetail(), Demo.productDetail(photos: nil), Demo.productDetail(photos: [])].compactMap(\.detail)
        #expect(details.count >= 6)
        for detail in details {
            for columns in [0, 1, 10, 14, 15, 24, 33, 40, 61, 80, 200] {
                for options in [Demo.options, Demo.plainOptions] {
                    let layout = Layout(size: ScreenSize(rows: 12, columns: columns))
                    let view = HistoryDetailView(detail: detail, layout: layout, context: RenderContext(options: options))
                    #expect(view.lines.count == HistoryDetailLayout(layout: layout).lineCount(of: detail), "record \(detail.record.id) at \(columns) columns")
                }
            }
        }
    }

    // MARK: - Search

    @Test(arguments: [(80, 24), (40, 12)])
    func searchWithResults(columns: Int, rows: Int) {
        let state = Demo.state(.inbox, columns: columns, rows: rows, presentation: Demo.search("40", results: 6, cursor: 1))
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func searchStates() {
        let empty = Demo.state(.history, columns: 80, rows: 24, presentation: Demo.search("", results: 0))
        assertSnapshot(of: render(empty), as: .gridText, named: "empty")
        let searching = Demo.state(.settings, columns: 40, rows: 12, presentation: Demo.search("pal", results: 0, answered: false))
        assertSnapshot(of: render(searching), as: .gridText, named: "searching")
        let none = Demo.state(.inbox, columns: 40, rows: 12, presentation: Demo.search("zzz", results: 0))
        assertSnapshot(of: render(none), as: .gridText, named: "no-match")
    }

    // MARK: - Questions

    @Test(arguments: [(80, 24), (40, 12), (24, 8)])
    func confirmDelete(columns: Int, rows: Int) {
        let alert = Alert.confirmDeletion(of: Demo.historyRows[3], photoCount: 3)
        let state = Demo.state(.history, columns: columns, rows: rows, history: Demo.productDetail(), presentation: .alert(alert, over: .none))
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func confirmClearAll(columns: Int, rows: Int) {
        let state = Demo.state(.settings, columns: columns, rows: rows, presentation: .alert(.confirmClearAll(count: 1_234), over: .none))
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func confirmClearAllMonochrome() {
        let state = Demo.state(.history, columns: 40, rows: 12, presentation: .alert(.confirmClearAll(count: 1_234), over: .none))
        assertSnapshot(of: render(state, Demo.plainOptions), as: .gridText)
    }

    // MARK: - Inbox highlight

    @Test(arguments: [(80, 24), (40, 12)])
    func inboxHighlight(columns: Int, rows: Int) {
        var inbox = Demo.inbox(cursor: 1)
        inbox.highlight = RequestHighlight(requestID: 7, token: 1, isShowing: true)
        let state = Demo.state(.inbox, columns: columns, rows: rows, inbox: inbox)
        let frame = render(state)
        // Request #7 is the fourth row of the list, which starts under the heading and its rule.
        let row = 2 + 3
        #expect(frame.grid.text(ofRow: row).contains("Check the returns"))
        #expect((1..<(columns - 1)).allSatisfy { frame.grid[row, $0].style == .success })
        assertSnapshot(of: frame, as: .gridText, named: "\(columns)x\(rows)")
    }
}
