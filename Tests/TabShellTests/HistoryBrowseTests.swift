import CaptureMode
import Domain
import Testing

@testable import TabShell

/// History beyond paging: browse modes, the record detail, deleting one record and Clear all.
@Suite("Shell: History modes, detail and deleting")
struct HistoryBrowseTests {
    static let total = 500

    /// On History, first page delivered, cursor moved down a few rows.
    static func onHistory(total: Int = total, size: ScreenSize = ScreenSize(rows: 24, columns: 80)) -> AppState {
        var state = AppState.loaded(historyTotal: total, size: size)
        _ = state.send([.tabChosen(.history), .listMoved(.down), .listMoved(.down), .listMoved(.down)])
        return state
    }

    /// Delivers every page the effects ask for.
    static func deliver(_ effects: [AppEffect], to state: inout AppState, total: Int = total) {
        for request in effects.historyRequests {
            _ = state.send(.history(.pageLoaded(page(for: request, total: total))))
        }
    }

    // MARK: - Browse modes

    @Test("b cycles All → By request → By requester → By kind → All, each from the top with a read in the new order")
    func browseModeCycles() {
        var state = Self.onHistory()
        var seen: [HistoryBrowseMode] = []
        for _ in 0..<4 {
            let effects = state.send(.history(.browseModeCycled))
            seen.append(state.history.browseMode)
            #expect(state.history.list == ListPosition())
            #expect(effects.historyRequests == [HistoryPageRequest(start: 0, count: 3 * state.layout.historyListRows, mode: state.history.browseMode)])
            #expect(state.history.totalCount == Self.total, "the count stays while the first page is read")
            Self.deliver(effects, to: &state)
            #expect(state.history.window.mode == state.history.browseMode)
            #expect(state.history.row(at: 0) != nil)
            _ = state.send(.listMoved(.pageDown))
        }
        #expect(seen == [.byRequest, .byRequester, .byKind, .all])
    }

    @Test("a page read for another mode is dropped, and the page of the mode showing is taken")
    func stalePageOfAnotherModeIsDropped() {
        var state = Self.onHistory()
        let effects = state.send(.history(.browseModeCycled))
        let old = page(for: HistoryPageRequest(start: 0, count: 60, mode: .all), total: Self.total)
        #expect(state.send(.history(.pageLoaded(old))) == [])
        #expect(state.history.window.mode == .byRequest && state.history.window.rows.isEmpty)
        #expect(state.history.pendingLoad == effects.historyRequests.first)
        Self.deliver(effects, to: &state)
        #expect(state.history.pendingLoad == nil)
        #expect(state.history.window.rows.count == 3 * state.layout.historyListRows)
    }

    @Test("paging in a grouped mode asks for pages in that mode")
    func pagingKeepsTheMode() {
        var state = Self.onHistory()
        Self.deliver(state.send([.history(.browseModeCycled), .history(.browseModeCycled)]), to: &state)
        let requests = state.send([.listMoved(.end)]).historyRequests
        #expect(requests.map(\.mode) == [.byRequester])
    }

    @Test("the mode is kept across tabs and capture, and b does nothing outside the History list")
    func modeIsPerTabState() {
        var state = Self.onHistory()
        Self.deliver(state.send(.history(.browseModeCycled)), to: &state)
        _ = state.send([.tabChosen(.inbox), .tabChosen(.create), .escapePressed, .tabChosen(.history)])
        #expect(state.history.browseMode == .byRequest)

        _ = state.send(.rowActivated)
        let inDetail = state
        #expect(state.send(.history(.browseModeCycled)) == [])
        #expect(state == inDetail)

        _ = state.send([.history(.backRequested), .tabChosen(.settings)])
        let onSettings = state
        #expect(state.send(.history(.browseModeCycled)) == [])
        #expect(state == onSettings)
    }

    // MARK: - Detail

    @Test("Enter opens the detail and asks for the record's photos; the answer fills them in")
    func detailLoadsPhotos() throws {
        var state = Self.onHistory()
        let row = try #require(state.history.row(at: 3))
        #expect(state.send(.rowActivated) == [.loadRecordDetail(row.id)])
        #expect(state.history.detail == HistoryDetailState(record: row))

        var fresher = row
        fresher.requestTitle = "Renamed elsewhere"
        let photos = [RecordPhoto(id: 7, position: 0, originalName: "a.png", format: .png, pixelWidth: 640, pixelHeight: 480, byteSize: 2_100)]
        #expect(state.send(.history(.detailLoaded(id: row.id, detail: RecordDetail(record: fresher, photos: photos)))) == [])
        #expect(state.history.detail == HistoryDetailState(record: fresher, photos: photos))
    }

    @Test("an answer for another record changes nothing")
    func detailForAnotherRecord() {
        var state = Self.onHistory()
        _ = state.send(.rowActivated)
        let before = state
        let other = historyRow(at: 50, total: Self.total)
        #expect(state.send(.history(.detailLoaded(id: other.id, detail: RecordDetail(record: other, photos: [])))) == [])
        #expect(state == before)
    }

    @Test("a record deleted elsewhere closes its detail, says so and reloads the list")
    func detailOfAVanishedRecord() throws {
        var state = Self.onHistory()
        let row = try #require(state.history.row(at: 3))
        _ = state.send(.rowActivated)
        let effects = state.send(.history(.detailLoaded(id: row.id, detail: nil)))
        #expect(state.history.stack.isEmpty)
        #expect(state.status == StatusMessage("Record #\(row.id) is no longer in History.", kind: .error))
        #expect(effects.historyRequests.count == 1)
    }

    @Test("a long detail scrolls line by line to exactly its last screenful, and no further")
    func detailScrolls() throws {
        var state = Self.onHistory(size: ScreenSize(rows: 12, columns: 40))
        var row = try #require(state.history.row(at: 3))
        row.note = String(repeating: "A fairly long note about a pallet. ", count: 12)
        _ = state.send(.rowActivated)
        _ = state.send(.history(.detailLoaded(id: row.id, detail: RecordDetail(record: row, photos: []))))
        let detailLayout = HistoryDetailLayout(layout: state.layout)
        let last = detailLayout.maximumScrollOffset(of: try #require(state.history.detail))
        #expect(last > 5)
        #expect(last == detailLayout.lineCount(of: try #require(state.history.detail)) - state.layout.contentRows)

        _ = state.send([.listMoved(.down), .listMoved(.down)])
        #expect(state.history.detail?.scrollOffset == 2)
        _ = state.send(.listMoved(.end))
        #expect(state.history.detail?.scrollOffset == last)
        _ = state.send(.listMoved(.down))
        #expect(state.history.detail?.scrollOffset == last)
        _ = state.send(.listMoved(.up))
        #expect(state.history.detail?.scrollOffset == last - 1, "Up moves at once after End")
        _ = state.send(.listMoved(.home))
        #expect(state.history.detail?.scrollOffset == 0)
        _ = state.send(.listMoved(.pageDown))
        #expect(state.history.detail?.scrollOffset == state.layout.contentRows - 1)

        // A taller terminal shows more, so the offset comes back within the new last screenful.
        _ = state.send([.listMoved(.end), .resized(ScreenSize(rows: 40, columns: 40))])
        let taller = HistoryDetailLayout(layout: state.layout).maximumScrollOffset(of: try #require(state.history.detail))
        #expect(state.history.detail?.scrollOffset == taller)
        #expect(state.history.list.cursor == 3, "scrolling the detail leaves the list's cursor alone")
    }

    @Test("a short detail does not scroll")
    func shortDetailDoesNotScroll() {
        var state = Self.onHistory()
        _ = state.send([.rowActivated, .listMoved(.down), .listMoved(.pageDown), .listMoved(.end)])
        #expect(state.history.detail?.scrollOffset == 0)
    }

    @Test("photos count two lines each in the detail")
    func photosAreTwoLinesEach() throws {
        let layout = Layout(size: ScreenSize(rows: 24, columns: 80))
        var record = historyRow(at: 0, total: 1)
        record.kind = .product
        let photo = RecordPhoto(id: 1, position: 0, originalName: "a.png", format: .png, pixelWidth: 1, pixelHeight: 1, byteSize: 1)
        let base = HistoryDetailLayout(layout: layout).lineCount(of: HistoryDetailState(record: record, photos: []))
        let three = HistoryDetailLayout(layout: layout).lineCount(of: HistoryDetailState(record: record, photos: [photo, photo, photo]))
        let loading = HistoryDetailLayout(layout: layout).lineCount(of: HistoryDetailState(record: record, photos: nil))
        #expect(three == base - 1 + 6)
        #expect(loading == base)
    }

    // MARK: - Delete one

    @Test("d on the list asks first; Delete deletes that record, Cancel and Esc nothing", arguments: ["delete", "cancel", "esc"])
    func deleteFromTheList(answer: String) throws {
        var state = Self.onHistory()
        let row = try #require(state.history.row(at: 3))
        #expect(state.send(.history(.deleteRequested)) == [])
        let alert = try #require(state.presentation.alert)
        #expect(alert == .confirmDeletion(of: row, photoCount: nil))
        #expect(alert.buttons.map(\.title) == ["Delete", "Cancel"])
        #expect(alert.buttons[alert.defaultButton].title == "Cancel", "Enter keeps the record")

        let effects: [AppEffect]
        switch answer {
        case "delete": effects = state.send(.alertButtonPressed(0))
        case "cancel": effects = state.send(.alertButtonPressed(1))
        default: effects = state.send(.escapePressed)
        }
        #expect(state.presentation == .none)
        #expect(effects == (answer == "delete" ? [.deleteRecord(row.id)] : []))
    }

    @Test("when the record is deleted, the rows after it move up, the count drops and the screen is re-read")
    func recordDeletedFromTheList() throws {
        var state = Self.onHistory()
        let row = try #require(state.history.row(at: 3))
        let next = try #require(state.history.row(at: 4))
        _ = state.send([.history(.deleteRequested), .alertButtonPressed(0)])

        let effects = state.send(.history(.recordDeleted(row.id)))

        #expect(state.history.totalCount == Self.total - 1)
        #expect(state.history.list.cursor == 3)
        #expect(state.history.row(at: 3) == next)
        #expect(state.status == StatusMessage("Deleted record #\(row.id).", kind: .success))
        // Re-read from the top by position (rows have moved, so no record anchors the read), and
        // the cursor stays on the record that took the deleted one's place.
        #expect(effects.historyRequests == [HistoryPageRequest(start: 0, count: 3 * state.layout.historyListRows, anchor: nil)])
        #expect(state.history.following?.first == next.id)
    }

    @Test("deleting the last record keeps the cursor on what is now the last")
    func deleteTheLastRecord() throws {
        var state = Self.onHistory(total: 3)
        _ = state.send(.listMoved(.end))
        let row = try #require(state.history.row(at: 2))
        _ = state.send([.history(.deleteRequested), .alertButtonPressed(0), .history(.recordDeleted(row.id))])
        #expect(state.history.totalCount == 2)
        #expect(state.history.list.cursor == 1)
    }

    @Test("d in the detail asks with the photo count, and the deletion closes the detail")
    func deleteFromTheDetail() throws {
        var state = Self.onHistory()
        let row = try #require(state.history.row(at: 3))
        let photo = RecordPhoto(id: 1, position: 0, originalName: "a.png", format: .png, pixelWidth: 1, pixelHeight: 1, byteSize: 1)
        _ = state.send([.rowActivated, .history(.detailLoaded(id: row.id, detail: RecordDetail(record: row, photos: [photo, photo])))])
        _ = state.send(.history(.deleteRequested))
        let alert = try #require(state.presentation.alert)
        #expect(alert.message.contains("and its 2 photos will be deleted"))
        #expect(state.send(.alertButtonPressed(alert.defaultButton)) == [], "Enter keeps the record")
        _ = state.send(.history(.deleteRequested))
        #expect(state.send(.alertButtonPressed(0)) == [.deleteRecord(row.id)])
        #expect(state.history.detail != nil, "the detail stays until storage confirms")

        _ = state.send(.history(.recordDeleted(row.id)))
        #expect(state.history.stack.isEmpty)
        #expect(state.history.totalCount == Self.total - 1)
    }

    @Test("d where nothing can be deleted does nothing", arguments: [Tab.inbox, .settings])
    func deleteElsewhere(tab: Tab) {
        var state = Self.onHistory()
        _ = state.send(.tabChosen(tab))
        let before = state
        #expect(state.send(.history(.deleteRequested)) == [])
        #expect(state == before)
    }

    @Test("d on a row whose page has not arrived does nothing")
    func deleteUnloadedRow() {
        var state = Self.onHistory()
        _ = state.send(.listMoved(.end))
        _ = state.send(.history(.deleteRequested))
        #expect(state.presentation == .none)
    }

    // MARK: - Clear all

    @Test("D asks with the count; Enter cancels, y deletes everything")
    func clearAll() throws {
        var state = Self.onHistory(total: 1_234)
        _ = state.send(.rowActivated)
        _ = state.send(.history(.clearAllRequested))
        let alert = try #require(state.presentation.alert)
        #expect(alert.title == "Clear History?")
        #expect(
            alert.message
                == "Delete all 1,234 records and their photos? Inbox requests are kept; those they answered become pending again. This cannot be undone."
        )
        #expect(alert.buttons[alert.defaultButton].action == .dismiss, "Enter must not delete everything")
        #expect(state.send(.alertButtonPressed(alert.defaultButton)) == [])
        #expect(state.presentation == .none)

        _ = state.send(.history(.clearAllRequested))
        let yes = try #require(state.presentation.alert?.buttons.firstIndex { $0.key == "y" })
        #expect(state.send(.alertButtonPressed(yes)) == [.deleteAllRecords])

        let effects = state.send(.history(.allRecordsDeleted(count: 1_234)))
        #expect(state.history.totalCount == 0)
        #expect(state.history.list == ListPosition())
        #expect(state.history.stack.isEmpty)
        #expect(state.status == StatusMessage("Deleted 1,234 records and their photos.", kind: .success))
        #expect(effects.historyRequests.count == 1)
        Self.deliver(effects, to: &state, total: 0)
        #expect(state.history.hasLoaded && state.history.totalCount == 0)
    }

    @Test("Clear all keeps the browse mode")
    func clearAllKeepsMode() {
        var state = Self.onHistory()
        Self.deliver(state.send(.history(.browseModeCycled)), to: &state)
        let effects = state.send(.history(.allRecordsDeleted(count: Self.total)))
        #expect(state.history.browseMode == .byRequest)
        #expect(effects.historyRequests.map(\.mode) == [.byRequest])
    }

    @Test("the confirmation for one record names it; a single record reads in the singular")
    func confirmationWording() {
        var row = historyRow(at: 0, total: 1)
        #expect(Alert.confirmDeletion(of: row, photoCount: 0).message == "\"4006381333931 (EAN-13)\" will be deleted. This cannot be undone.")
        #expect(Alert.confirmDeletion(of: row, photoCount: 1).message.contains("and its photo will"))
        row.barcode = nil
        #expect(Alert.confirmDeletion(of: row, photoCount: nil).message == "This barcode and its photos will be deleted. This cannot be undone.")
        #expect(
            Alert.confirmClearAll(count: 1).message
                == "Delete the only record and its photos? Inbox requests are kept; those they answered become pending again. This cannot be undone."
        )
    }

    @Test("a button index that is not there, or a press with no alert, does nothing")
    func strayButtonPresses() {
        var state = Self.onHistory()
        let before = state
        #expect(state.send(.alertButtonPressed(0)) == [])
        #expect(state == before)
        _ = state.send(.history(.deleteRequested))
        let asking = state
        #expect(state.send(.alertButtonPressed(5)) == [])
        #expect(state == asking)
    }

    @Test("an OK alert's button only dismisses it")
    func okButton() {
        var state = AppState.loaded()
        state.presentation = .alert(.requestRequired, over: .sheet(.help(HelpState(scrollOffset: 3))))
        #expect(Alert.requestRequired.buttons == [.ok])
        #expect(state.send(.alertButtonPressed(0)) == [])
        #expect(state.presentation == .sheet(.help(HelpState(scrollOffset: 3))))
    }
}
