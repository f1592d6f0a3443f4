import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// The navigation state as a snapshot, and back (coming back after a dropped link).
@Suite("Session snapshots")
struct SessionSnapshotTests {
    /// History with 30 records, the 5th open in its detail, a capture of a note half typed.
    static func stateWithEverythingOpen() -> AppState {
        var state = AppState.loaded(requests: [request(1), request(2, kind: .note)], historyTotal: 30)
        _ = state.send([.tabChosen(.history), .listMoved(.down), .listMoved(.down), .listMoved(.down), .listMoved(.down), .rowActivated])
        _ = state.send([.tabChosen(.settings), .listMoved(.down), .listMoved(.down), .tabChosen(.inbox), .listMoved(.down)])
        _ = state.send([
            .tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("Two boxes,\ndented")),
            .capture(.cursorMoved(.up)),
        ])
        return state
    }

    @Test func aSnapshotSurvivesJSONAndRestoresTheNavigation() throws {
        let before = Self.stateWithEverythingOpen()
        let snapshot = before.sessionSnapshot(savedAt: epoch, stagingID: "abc")
        let decoded = try JSONDecoder().decode(SessionSnapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)

        var after = AppState.loaded(requests: [request(1), request(2, kind: .note)], historyTotal: 30)
        let effects = after.send(.sessionRestored(decoded, photos: [], message: "Welcome back."))

        #expect(after.selectedTab == before.selectedTab)
        #expect(after.inbox.list == before.inbox.list)
        #expect(after.settingsScreen.list == before.settingsScreen.list)
        #expect(after.history.list.cursor == before.history.list.cursor)
        #expect(after.history.stack.map(\.record.id) == before.history.stack.map(\.record.id))
        let capture = try #require(after.presentation.capture)
        let original = try #require(before.presentation.capture)
        #expect(capture.kind == .note && capture.phase == original.phase)
        #expect(capture.note == original.note, "the text and where the cursor was")
        #expect(after.status == StatusMessage("Welcome back.", kind: .success))
        // The data on screen is read again: the Inbox, History's rows, the detail's record.
        #expect(effects.contains(.loadInbox(limit: InboxSnapshot.pageSize)))
        #expect(!effects.historyRequests.isEmpty)
        #expect(effects.contains(.loadRecordDetail(before.history.stack[0].record.id)))
        #expect(!effects.contains { if case .saveDraft = $0 { true } else { false } }, "the draft on disk is already this")
    }

    @Test func anOpenAlertComesBackOverWhatItWasOver() throws {
        var state = AppState.loaded(historyTotal: 3)
        _ = state.send([.tabChosen(.history), .history(.deleteRequested)])
        let alert = try #require(state.presentation.alert)
        let snapshot = state.sessionSnapshot(savedAt: epoch, stagingID: nil)
        let decoded = try JSONDecoder().decode(SessionSnapshot.self, from: JSONEncoder().encode(snapshot))
        var after = AppState.loaded(historyTotal: 3)
        _ = after.send(.sessionRestored(decoded, photos: [], message: nil))
        #expect(after.presentation == .alert(alert, over: .none))
        #expect(after.selectedTab == .history)
        // Its keys still press its buttons: Esc answers it and leaves History as it was.
        _ = after.send(.alertDismissed)
        #expect(after.presentation == .none)
    }

    @Test func aSnapshotFromBeforeAlertsWereKeptStillReads() throws {
        let snapshot = AppState.loaded().sessionSnapshot(savedAt: epoch, stagingID: nil)
        var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any])
        object.removeValue(forKey: "alert")
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(SessionSnapshot.self, from: old).alert == nil)
    }

    @Test func theHelpSheetComesBackScrolled() {
        var state = AppState.loaded()
        _ = state.send([.helpRequested, .listMoved(.down), .listMoved(.down)])
        let snapshot = state.sessionSnapshot(savedAt: epoch, stagingID: nil)
        var after = AppState.loaded()
        _ = after.send(.sessionRestored(snapshot, photos: [], message: nil))
        #expect(after.presentation == state.presentation)
    }

    @Test func theActionTabIsNeverRestoredAsSelected() throws {
        var snapshot = AppState.loaded().sessionSnapshot(savedAt: epoch, stagingID: nil)
        snapshot.selectedTab = .create
        var after = AppState.loaded()
        _ = after.send(.sessionRestored(snapshot, photos: [], message: nil))
        #expect(after.selectedTab.tab.role == .content)
    }
}
