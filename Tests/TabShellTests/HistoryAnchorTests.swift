import CaptureMode
import TabShell
import Testing

/// History's page requests carry an anchor: a loaded row near the rows asked for, so storage
/// can read by keyset from it instead of counting from the top.
@Suite("Shell: History page anchors")
struct HistoryAnchorTests {
    static let total = 100_000

    static func onHistory() -> AppState {
        var state = AppState.loaded(historyTotal: total)
        _ = state.send(.tabChosen(.history))
        return state
    }

    @Test("the first read has nothing to anchor to")
    func firstReadHasNoAnchor() {
        var state = AppState()
        let requests = state.send(.started).historyRequests
        #expect(requests.map(\.anchor) == [nil])
    }

    @Test("every read while scrolling names a loaded row nearest to where it starts, at its position")
    func scrollingReadsAreAnchoredToTheNearestLoadedRow() {
        var state = Self.onHistory()
        var reads = 0
        for move in Array(repeating: ListMove.down, count: 200) + Array(repeating: .pageDown, count: 30) + [.end, .pageUp, .home] {
            let window = state.history.window
            for request in state.send(.listMoved(move)).historyRequests {
                reads += 1
                guard let anchor = request.anchor else {
                    Issue.record("no anchor for \(move)")
                    continue
                }
                let offset = anchor.position - window.start
                #expect(window.rows.indices.contains(offset))
                #expect(window.rows[offset].id == anchor.recordID)
                // Nearest: inside the requested range when they overlap, else the window's edge.
                let edge = min(max(request.start, window.start), window.start + window.rows.count - 1)
                #expect(anchor.position == edge)
                _ = state.send(.history(.pageLoaded(page(for: request, total: Self.total))))
            }
        }
        #expect(reads > 5)
    }

    @Test("a read for another browse mode has no anchor: positions differ between orders")
    func switchingModeDropsTheAnchor() {
        var state = Self.onHistory()
        _ = state.send(.listMoved(.end))
        let requests = state.send(.history(.browseModeCycled)).historyRequests
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.anchor == nil && $0.mode == .byRequest })
    }
}
