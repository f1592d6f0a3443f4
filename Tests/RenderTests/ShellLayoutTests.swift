import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

@testable import Render

/// The renderer draws exactly the rows the reducer scrolls by, and the hint line comes from the
/// key table.
@Suite struct ShellLayoutTests {
    private static let manyRequests = (0..<40).map { index in
        InboxRequest(id: Int64(index), title: "Request \(index)", body: "Body \(index)", kind: .barcode, status: .pending, createdAt: Demo.now)
    }

    @Test(arguments: [(80, 24), (40, 12), (24, 8), (60, 30)])
    func inboxDrawsLayoutsListRows(columns: Int, rows: Int) throws {
        var state = Demo.state(.inbox, columns: columns, rows: rows, inbox: Demo.inbox(Self.manyRequests))
        for _ in 0..<30 { _ = state.send(.listMoved(.down)) }
        let frame = Screen.render(state, options: Demo.options)
        let listRows = (0..<rows).filter { frame.grid.text(ofRow: $0).contains("● Request") }
        #expect(listRows.count == state.layout.inboxListRows)
        let selected = try #require(frame.find("› ● Request 30"))
        #expect(listRows.contains(selected.row))
    }

    @Test func theInboxPositionSaysWhenMoreRequestsFollowThoseRead() {
        var inbox = Demo.inbox(Self.manyRequests, cursor: 2)
        inbox.hasMore = true
        let partial = Screen.render(Demo.state(.inbox, columns: 80, rows: 24, inbox: inbox), options: Demo.options)
        #expect(partial.find("3/40+ ") != nil, "\(partial.grid.text(ofRow: 1))")

        inbox.hasMore = false
        let whole = Screen.render(Demo.state(.inbox, columns: 80, rows: 24, inbox: inbox), options: Demo.options)
        #expect(whole.find("3/40 ") != nil, "\(whole.grid.text(ofRow: 1))")
    }

    @Test(arguments: [(80, 24), (40, 12), (24, 8)])
    func historyDrawsLayoutsListRows(columns: Int, rows: Int) {
        var state = Demo.state(.history, columns: columns, rows: rows, history: Demo.history(Demo.historyRows, total: 40))
        for _ in 0..<25 { _ = state.send(.listMoved(.down)) }
        let frame = Screen.render(state, options: Demo.options)
        let listRows = (0..<rows).filter { row in
            let text = frame.grid.text(ofRow: row)
            return CaptureKind.allCases.contains { text.hasPrefix("   \($0.title)") || text.hasPrefix(" › \($0.title)") }
        }
        #expect(listRows.count == state.layout.historyListRows)
        #expect(frame.find("26/40") != nil)
    }

    @Test(arguments: [(80, 24), (40, 12), (24, 8)])
    func agesStayAlignedUnderWideTitles(columns: Int, rows: Int) {
        let inbox = Demo.state(.inbox, columns: columns, rows: rows, inbox: Demo.inbox(Demo.wideRequests))
        let history = Demo.state(.history, columns: columns, rows: rows, history: Demo.history(Demo.wideHistoryRows, total: 4))
        for state in [inbox, history] {
            let frame = Screen.render(state, options: Demo.options)
            let listRows = (2..<(2 + min(4, state.layout.contentRows - 1))).map { $0 + (state.selectedTab == .history ? 1 : 0) }
            for row in listRows {
                let lastDrawn = (0..<columns).last { frame.grid[row, $0].text != " " }
                #expect(lastDrawn == columns - 2, "row \(row) at \(columns)x\(rows): \(frame.grid.text(ofRow: row))")
            }
        }
    }

    @Test func hintLineComesFromTheKeyTable() {
        let state = Demo.state(.inbox, columns: 200, rows: 24)
        let frame = Screen.render(state, options: Demo.options)
        let expected = KeyMap.hints(for: state, unicode: true).map { "\($0.keys) \($0.hint)" }.joined(separator: "  ")
        #expect(frame.grid.text(ofRow: 21).trimmingCharacters(in: .whitespaces) == expected)
    }

    @Test func narrowHintLinesKeepTheHelpKey() {
        let frame = Screen.render(Demo.state(.inbox, columns: 30, rows: 10), options: Demo.options)
        #expect(frame.grid.text(ofRow: 7).contains("? keys"))
    }

    @Test func statusReplacesTheHints() {
        var state = Demo.state(.inbox)
        state.status = StatusMessage("Saved barcode to History.", kind: .success)
        let frame = Screen.render(state, options: Demo.options)
        #expect(frame.grid.text(ofRow: 21).hasPrefix(" ✓ Saved barcode to History."))
        #expect(frame.grid[21, 1].style == .success)
    }

    @Test func contentStartsUnderATopTabBar() {
        let frame = Screen.render(Demo.state(.inbox, settings: Settings(tabBarPosition: .top)), options: Demo.options)
        #expect(frame.grid.text(ofRow: 2).hasPrefix(" Inbox"))
        #expect(frame.grid[2, 1].style == .heading)
        #expect(frame.find("Enter capture")?.row == 23)
    }
}
