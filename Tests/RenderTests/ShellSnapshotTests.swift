import CaptureMode
import Domain
import Render
import Scanning
import SnapshotTesting
import Testing

@testable import TabShell

/// Reviewed screens of the tab shell: each tab at 80x24 and 40x12, and the variants that
/// matter (bar on top, monochrome ASCII, wide characters, overlays, tiny terminals).
@Suite struct ShellSnapshotTests {
    private func render(_ state: AppState, _ options: RenderOptions = Demo.options) -> Frame {
        Screen.render(state, options: options)
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func inbox(columns: Int, rows: Int) {
        let state = Demo.state(.inbox, columns: columns, rows: rows)
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func inboxWithChosenRequestAndStatus() {
        var state = Demo.state(.inbox, inbox: Demo.inbox(cursor: 2, chosen: 12))
        state.status = StatusMessage("Create now captures for \u{201C}Scan the pallet in bay 4\u{201D}.")
        assertSnapshot(of: render(state), as: .gridText)
    }

    @Test func inboxEmptyAndLoading() {
        var empty = InboxState()
        empty.hasLoaded = true
        assertSnapshot(of: render(Demo.state(.inbox, inbox: empty)), as: .gridText, named: "empty")
        assertSnapshot(of: render(Demo.state(.inbox, columns: 40, rows: 12, inbox: empty)), as: .gridText, named: "empty-40x12")
        assertSnapshot(of: render(Demo.state(.inbox, columns: 40, rows: 12, inbox: InboxState())), as: .gridText, named: "loading")
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func history(columns: Int, rows: Int) {
        let state = Demo.state(.history, columns: columns, rows: rows, history: Demo.history(cursor: 3))
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func historyScrolledWithRowsStillLoading() {
        let history = Demo.history(Array(Demo.historyRows.prefix(20)), cursor: 30, scrollOffset: 15, windowStart: 10)
        assertSnapshot(of: render(Demo.state(.history, history: history)), as: .gridText)
    }

    @Test func historyEmpty() {
        let history = Demo.history([], total: 0)
        assertSnapshot(of: render(Demo.state(.history, columns: 40, rows: 12, history: history)), as: .gridText)
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func historyDetail(columns: Int, rows: Int) {
        var history = Demo.history()
        history.stack = [HistoryDetailState(record: Demo.historyRows[1])]
        assertSnapshot(of: render(Demo.state(.history, columns: columns, rows: rows, history: history)), as: .gridText, named: "note-\(columns)x\(rows)")
        history.stack = [HistoryDetailState(record: Demo.historyRows[0])]
        assertSnapshot(of: render(Demo.state(.history, columns: columns, rows: rows, history: history)), as: .gridText, named: "barcode-\(columns)x\(rows)")
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func settings(columns: Int, rows: Int) {
        var state = Demo.state(.settings, columns: columns, rows: rows, settings: Settings(captureGating: true, autoAdvanceMilliseconds: 0))
        state.settingsScreen.list = ListPosition(cursor: 1, scrollOffset: 0)
        assertSnapshot(of: render(state), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func tabBarOnTop() {
        let state = Demo.state(.history, settings: Settings(tabBarPosition: .top))
        assertSnapshot(of: render(state), as: .gridText, named: "80x24")
        let narrow = Demo.state(.inbox, columns: 40, rows: 12, settings: Settings(tabBarPosition: .top))
        assertSnapshot(of: render(narrow), as: .gridText, named: "40x12")
    }

    @Test func monochromeASCII() {
        var state = Demo.state(.inbox, inbox: Demo.inbox(cursor: 1, chosen: 12))
        state.status = StatusMessage("Storage is not writable: disk full.", kind: .error)
        assertSnapshot(of: render(state, Demo.plainOptions), as: .gridText, named: "inbox")
        var history = Demo.history()
        history.stack = [HistoryDetailState(record: Demo.historyRows[1])]
        assertSnapshot(of: render(Demo.state(.history, history: history), Demo.plainOptions), as: .gridText, named: "history-detail")
        assertSnapshot(of: render(Demo.state(.settings, columns: 40, rows: 12), Demo.plainOptions), as: .gridText, named: "settings-40x12")
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func wideCharacters(columns: Int, rows: Int) {
        let inbox = Demo.state(.inbox, columns: columns, rows: rows, inbox: Demo.inbox(Demo.wideRequests, cursor: 1))
        assertSnapshot(of: render(inbox), as: .gridText, named: "inbox-\(columns)x\(rows)")
        let history = Demo.history(Demo.wideHistoryRows, total: 4, cursor: 0)
        assertSnapshot(of: render(Demo.state(.history, columns: columns, rows: rows, history: history)), as: .gridText, named: "history-\(columns)x\(rows)")
    }

    @Test func helpSheet() {
        let state = Demo.state(.inbox, presentation: .sheet(.help(HelpState(scrollOffset: 0))))
        assertSnapshot(of: render(state), as: .gridText, named: "80x24")
        let scrolled = Demo.state(.settings, columns: 40, rows: 12, presentation: .sheet(.help(HelpState(scrollOffset: 9))))
        assertSnapshot(of: render(scrolled), as: .gridText, named: "40x12-scrolled")
    }

    @Test func gatingAlertOverInbox() {
        let state = Demo.state(.inbox, settings: Settings(captureGating: true), presentation: .alert(.requestRequired, over: .none))
        assertSnapshot(of: render(state), as: .gridText, named: "80x24")
        let small = Demo.state(.inbox, columns: 24, rows: 8, settings: Settings(captureGating: true), presentation: .alert(.requestRequired, over: .none))
        assertSnapshot(of: render(small), as: .gridText, named: "24x8")
    }

    @Test(arguments: [(20, 6), (1, 1), (24, 8)])
    func tooSmallAndMinimum(columns: Int, rows: Int) {
        assertSnapshot(of: render(Demo.state(.inbox, columns: columns, rows: rows)), as: .gridText, named: "\(columns)x\(rows)")
    }
}
