import CaptureMode
import SnapshotTesting
import Testing

@testable import Render
@testable import TabShell

/// Who captured what: History's By column once more than one person is in the
/// data, and the By line of a record's detail.
@Suite struct PeopleSnapshotTests {
    static let people = ["ana", "Ben Okafor", "ana", "李雷", "ana"]

    /// The demo's History with a name on each row.
    static func history(severalPeople: Bool) -> HistoryState {
        let rows = Demo.historyRows.enumerated().map { index, row in
            var row = row
            row.capturedBy = people[index % people.count]
            return row
        }
        var history = Demo.history(rows, total: rows.count)
        history.window.hasSeveralPeople = severalPeople
        return history
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func historyShowsWhoWhenSeveralPeopleCaptured(columns: Int, rows: Int) {
        let frame = Screen.render(Demo.state(.history, columns: columns, rows: rows, history: Self.history(severalPeople: true)), options: Demo.options)
        #expect(frame.find("By") != nil)
        assertSnapshot(of: frame, as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func onePersonsHistoryHasNoByColumn() {
        let frame = Screen.render(Demo.state(.history, columns: 80, rows: 24, history: Self.history(severalPeople: false)), options: Demo.options)
        #expect(frame.find("By") == nil)
        #expect(frame.find("Ben Okafor") == nil)
    }

    @Test func theDetailNamesWhoCaptured() throws {
        var history = Self.history(severalPeople: true)
        let row = try #require(history.window.rows.dropFirst().first)
        history.stack = [HistoryDetailState(record: row, photos: [])]
        let frame = Screen.render(Demo.state(.history, columns: 80, rows: 24, history: history), options: Demo.options)
        #expect(frame.find("Ben Okafor") != nil)
        assertSnapshot(of: frame, as: .gridText)
    }
}
