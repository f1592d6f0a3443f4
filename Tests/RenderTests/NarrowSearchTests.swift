import CaptureMode
import Domain
import Foundation
import SnapshotTesting
import TabShell
import Testing

@testable import Render

/// At the minimum size search has room for one result row: what matched gets the row's width,
/// so results that differ at their end (`note number 1`, `note number 2`) can be told apart.
@Suite struct NarrowSearchTests {
    static func state(columns: Int, rows: Int, cursor: Int) -> AppState {
        let rows24 = (1...6).map { number in
            HistoryRow(
                id: Int64(number), kind: .note, barcode: nil, note: "note number \(number)", requestID: nil, requestTitle: nil,
                createdAt: Demo.now.addingTimeInterval(-Double(number) * 86_400))
        }
        var search = SearchState(query: "note")
        search.isQuerySelected = false
        search.results = rows24
        search.resultsQuery = search.trimmedQuery
        search.list = ListPosition(cursor: cursor, scrollOffset: 0)
        return Demo.state(.inbox, columns: columns, rows: rows, presentation: .sheet(.search(search)))
    }

    @Test func theMinimumSizeShowsAResultWhole() {
        for cursor in 0..<6 {
            let frame = Screen.render(Self.state(columns: 24, rows: 8, cursor: cursor), options: Demo.options)
            #expect(frame.find("note number \(cursor + 1)") != nil, "result \(cursor + 1) whole at 24x8")
        }
        assertSnapshot(of: Screen.render(Self.state(columns: 24, rows: 8, cursor: 1), options: Demo.options), as: .gridText, named: "24x8")
        assertSnapshot(of: Screen.render(Self.state(columns: 30, rows: 10, cursor: 1), options: Demo.options), as: .gridText, named: "30x10")
    }
}
