import CaptureMode
import Domain
import Foundation
import PropertyBased
import TabShell
import Testing

/// After any reload the cursor stays on the same item by id — in the Inbox, in History (read
/// in pages) and in the search results — and, when that item is gone, on its nearest
/// neighbour: the first of the items after it still there, else the nearest before it.
@Suite struct CursorFollowsItemTests {
    /// One step of a random session: a move, or a change made elsewhere followed by the reload.
    enum Step: Sendable, CustomStringConvertible {
        case move(ListMove)
        /// Insert `inserts` new items at positions drawn from `seeds`, delete the items at
        /// positions drawn from `deletions`.
        case change(inserts: [Int], deletions: [Int])

        var description: String {
            switch self {
            case let .move(move): "move(\(move))"
            case let .change(inserts, deletions): "change(+\(inserts), -\(deletions))"
            }
        }
    }

    static let step = zip(
        Gen.int(in: 0...9), Gen.int(in: 0...5),
        Gen.int(in: 0...10_000).array(of: 0...4), Gen.int(in: 0...10_000).array(of: 0...3)
    ).map { choice, move, inserts, deletions in
        choice < 6 ? Step.move(ListMove.allCases[move]) : Step.change(inserts: inserts, deletions: deletions)
    }

    /// Applies a change to an id list; new ids are above every old one.
    static func apply(_ inserts: [Int], _ deletions: [Int], to ids: inout [Int64], nextID: inout Int64) {
        for seed in deletions where !ids.isEmpty { ids.remove(at: seed % ids.count) }
        for seed in inserts {
            ids.insert(nextID, at: seed % (ids.count + 1))
            nextID += 1
        }
    }

    /// What the cursor must be on after the change: the same id, else the nearest neighbour.
    static func expectedID(cursorID: Int64?, before: [Int64], after: [Int64]) -> Int64? {
        guard let cursorID, let index = before.firstIndex(of: cursorID) else { return nil }
        let preference = [before[index]] + before[(index + 1)...] + before[..<index].reversed()
        return preference.first { after.contains($0) }
    }

    @Test func inboxCursorStaysOnItsRequest() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...40), Self.step.array(of: 1...40)) { initial, steps in
            var ids = (1...Int64(max(1, initial))).map { $0 }
            var nextID = Int64(ids.count + 1)
            var state = AppState.loaded(requests: ids.map { request($0) })
            for step in steps {
                switch step {
                case let .move(move):
                    _ = state.send(.listMoved(move))
                case let .change(inserts, deletions):
                    let before = ids
                    let cursorID = state.inbox.highlightedRequest?.id
                    Self.apply(inserts, deletions, to: &ids, nextID: &nextID)
                    _ = state.send(.inbox(.loaded(snapshot(ids.map { request($0) }))))
                    if let expected = Self.expectedID(cursorID: cursorID, before: before, after: ids) {
                        #expect(state.inbox.highlightedRequest?.id == expected, "after \(step) from \(before) to \(ids)")
                    }
                    let list = state.inbox.list
                    #expect(ids.isEmpty || (0..<ids.count).contains(list.cursor))
                    #expect(list.cursor >= list.scrollOffset && list.cursor < list.scrollOffset + max(1, state.layout.inboxListRows))
                }
            }
        }
    }

    /// An Inbox shown from its top shows what arrives above the selected request (an agent's
    /// request, another host's), as long as the selection stays on screen; scrolled down, the
    /// selected request keeps its screen row instead.
    @Test func anInboxAtItsTopShowsARequestThatArrivesAbove() {
        var ids = Array(Int64(1)...40).reversed().map { $0 }
        var state = AppState.loaded(requests: ids.map { request($0) })
        let rows = state.layout.inboxListRows
        for _ in 0..<(rows / 2) { _ = state.send(.listMoved(.down)) }
        let selected = state.inbox.highlightedRequest?.id
        #expect(state.inbox.list.scrollOffset == 0)

        ids.insert(41, at: 0)
        _ = state.send(.inbox(.loaded(snapshot(ids.map { request($0) }))))
        #expect(state.inbox.list.scrollOffset == 0, "the new request is on screen")
        #expect(state.inbox.highlightedRequest?.id == selected)

        // At the bottom of the screen, the selection would leave it: the row is kept.
        for _ in 0..<rows { _ = state.send(.listMoved(.down)) }
        let offset = state.inbox.list.scrollOffset
        let screenRow = state.inbox.list.cursor - offset
        #expect(offset > 0)
        ids.insert(42, at: 0)
        _ = state.send(.inbox(.loaded(snapshot(ids.map { request($0) }))))
        #expect(state.inbox.list.cursor - state.inbox.list.scrollOffset == screenRow)
    }

    /// History holds a window of pages; each change elsewhere re-reads the rows on screen.
    @Test func historyCursorStaysOnItsRecordInEveryBrowseMode() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...200), Self.step.array(of: 1...30), Gen.int(in: 0...2)) { initial, steps, modeIndex in
            var ids = (0..<max(1, initial)).map { Int64(1_000_000 - $0) }
            var nextID = Int64(2_000_000)
            var state = AppState.loaded(historyTotal: 0)
            let mode = HistoryBrowseMode.allCases[modeIndex]
            func deliver(_ effects: [AppEffect]) {
                var pending = effects
                while let effect = pending.first {
                    pending.removeFirst()
                    guard case let .loadHistory(request) = effect else { continue }
                    let end = min(ids.count, request.start + request.count)
                    let rows =
                        request.start < end
                        ? ids[request.start..<end].map { id in
                            HistoryRow(id: id, kind: .barcode, barcode: validEAN13, note: nil, requestID: nil, requestTitle: nil, createdAt: epoch)
                        } : []
                    pending += state.send(.history(.pageLoaded(HistoryPage(start: request.start, rows: rows, totalCount: ids.count, mode: request.mode))))
                }
            }
            deliver(state.send(.tabChosen(.history)))
            while state.history.browseMode != mode { deliver(state.send(.history(.browseModeCycled))) }
            deliver(state.send(.databaseChangedElsewhere))
            for step in steps {
                switch step {
                case let .move(move):
                    deliver(state.send(.listMoved(move)))
                case let .change(inserts, deletions):
                    let before = ids
                    let cursorID = state.history.row(at: state.history.list.cursor)?.id
                    Self.apply(inserts, deletions, to: &ids, nextID: &nextID)
                    deliver(state.send(.databaseChangedElsewhere))
                    if let expected = Self.expectedID(cursorID: cursorID, before: before, after: ids) {
                        #expect(
                            state.history.row(at: state.history.list.cursor)?.id == expected,
                            "\(mode): after \(step), cursor \(state.history.list.cursor)")
                    }
                }
            }
        }
    }

    @Test func searchCursorStaysOnItsResultWhenTheResultsAreReadAgain() {
        var state = AppState.loaded(historyTotal: 0)
        _ = state.send(.searchRequested)
        _ = state.send(.search(.edited(.typed("40"))))
        let rows = (1...10).map { historyRow(at: $0, total: 20) }
        _ = state.send(.search(.resultsLoaded(query: "40", rows: rows)))
        _ = state.send([.listMoved(.down), .listMoved(.down), .listMoved(.down)])
        let chosen = state.presentation.search?.highlightedResult
        let effects = state.send(.databaseChangedElsewhere)
        #expect(effects.contains(.search(query: "40", limit: SearchState.resultLimit)))
        // A new record matched and sorts first; the chosen one moved down a row.
        let newRow = HistoryRow(id: 99, kind: .barcode, barcode: validEAN13, note: nil, requestID: nil, requestTitle: nil, createdAt: epoch)
        _ = state.send(.search(.resultsLoaded(query: "40", rows: [newRow] + rows)))
        #expect(state.presentation.search?.highlightedResult == chosen)
        // The chosen one deleted elsewhere: its neighbour after it.
        let remaining = ([newRow] + rows).filter { $0.id != chosen?.id }
        let after = rows[4]
        _ = state.send(.search(.resultsLoaded(query: "40", rows: remaining)))
        #expect(state.presentation.search?.highlightedResult == after)
    }

    @Test func reopenedSearchSelectsTheOldQuerySoTypingReplacesIt() {
        var state = AppState.loaded(historyTotal: 0)
        _ = state.send([.searchRequested, .search(.edited(.typed("shelf")))])
        _ = state.send(.search(.resultsLoaded(query: "shelf", rows: [historyRow(at: 0, total: 1)])))
        _ = state.send(.escapePressed)
        _ = state.send(.searchRequested)
        #expect(state.presentation.search?.query.text == "shelf")
        #expect(state.presentation.search?.isQuerySelected == true)
        _ = state.send(.search(.edited(.typed("a"))))
        #expect(state.presentation.search?.query.text == "a")
        #expect(state.presentation.search?.results.count == 1, "the old results stay until the new query answers")
        _ = state.send(.search(.edited(.typed("b"))))
        #expect(state.presentation.search?.query.text == "ab")
    }

    @Test func aMoveKeepsTheReopenedQueryToEdit() {
        var state = AppState.loaded(historyTotal: 0)
        _ = state.send([.searchRequested, .search(.edited(.typed("shelf"))), .escapePressed, .searchRequested])
        _ = state.send(.search(.edited(.moved(.left))))
        _ = state.send(.search(.edited(.typed("X"))))
        #expect(state.presentation.search?.query.text == "shelXf")
    }
}

/// Small things a new user noticed, at the model.
@Suite struct SmallThingsModelTests {
    @Test func aSuccessMessageGoesAfterAFewSecondsAndAnErrorStays() {
        var state = AppState.loaded()
        state.presentation = .fullScreenCapture(CaptureState(config: CaptureConfig(), request: nil, kind: .note, phase: .note, barcode: nil, note: "x", photos: []))
        let effects = state.send(.captureCommitted(recordID: 1, submission: CaptureSubmission(kind: .note, note: "x")))
        #expect(state.status?.kind == .success)
        let timers = effects.compactMap { effect -> (Int, AppAction)? in
            if case let .schedule(milliseconds, action) = effect, case .statusExpired = action { return (milliseconds, action) }
            return nil
        }
        #expect(timers.count == 1)
        guard let (milliseconds, action) = timers.first else { return }
        #expect(milliseconds == StatusMessage.successMilliseconds)
        // A newer message is not cleared by the older timer.
        state.status = StatusMessage("Deleted record #1.", kind: .success)
        state.statusToken += 1
        _ = state.send(action)
        #expect(state.status != nil)
        _ = state.send(.statusExpired(token: state.statusToken))
        #expect(state.status == nil)
        state.status = StatusMessage("Cannot write", kind: .error)
        _ = state.send(.statusExpired(token: state.statusToken))
        #expect(state.status?.kind == .error)
    }

    @Test func aPhotosRecordSummarisesItsPhotos() {
        func row(_ kind: CaptureKind, count: Int, name: String?) -> HistoryRow {
            HistoryRow(id: 1, kind: kind, barcode: nil, note: nil, requestID: nil, requestTitle: nil, createdAt: epoch, photoCount: count, firstPhotoName: name)
        }
        #expect(row(.photos, count: 1, name: "shelf.png").summary == "shelf.png")
        #expect(row(.photos, count: 3, name: "shelf.png").summary == "shelf.png + 2 more")
        #expect(row(.photos, count: 2, name: nil).summary == "2 photos")
        #expect(row(.product, count: 1, name: "a.jpg").summary == "No barcode \u{00B7} a.jpg")
    }
}
