import CaptureMode
import Domain
import TabShell
import Testing

/// Create, Close, Done, gating and capture from Inbox requests.
@Suite("Shell: capture mode")
struct CaptureFlowTests {
    // MARK: - Create

    @Test("Create presents capture on its picker and keeps the selected tab", arguments: Tab.contentTabs)
    func createPresentsCapture(from tab: Tab) {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(tab))
        #expect(state.send(.tabChosen(.create)) == [])
        #expect(state.presentation == .fullScreenCapture(CaptureState()))
        #expect(state.selectedTab.tab == tab)
    }

    @Test("capture takes its config from Settings")
    func captureConfigFromSettings() {
        var settings = Settings.default
        settings.autoAdvanceMilliseconds = 1500
        settings.allowFreeTextCodes = true
        var state = AppState.loaded(settings: settings)
        _ = state.send(.tabChosen(.create))
        #expect(state.presentation.capture?.config == CaptureConfig(autoAdvanceMilliseconds: 1500, allowsFreeText: true))
    }

    @Test("Create is ignored while capture is already showing (no capture inside capture)")
    func createInsideCaptureIgnored() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("x"))])
        let before = state
        #expect(state.send(.tabChosen(.create)) == [])
        #expect(state == before)
    }

    // MARK: - Close

    @Test(
        "Esc or Close returns to the tab you came from", arguments: Tab.contentTabs,
        [
            AppAction.escapePressed, .capture(.closeTapped),
        ])
    func closeSnapsBack(from tab: Tab, close: AppAction) {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(tab), .tabChosen(.create), .capture(.kindChosen(.barcode))])
        _ = state.send(close)
        #expect(state.presentation == .none)
        #expect(state.selectedTab.tab == tab)
    }

    @Test("Close with something typed asks once; Enter keeps editing, y discards and snaps back", arguments: Tab.contentTabs)
    func closeWithTypedWorkAsks(from tab: Tab) throws {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(tab), .tabChosen(.create), .capture(.kindChosen(.barcode)), .capture(.textTyped("123"))])
        _ = state.send(.escapePressed)
        #expect(state.presentation.capture?.isConfirmingClose == true)
        _ = state.send(.capture(.closeCancelled))  // Enter, n or Esc
        #expect(state.presentation.capture?.barcodeInput.text == "123")
        #expect(state.presentation.capture?.isConfirmingClose == false)
        _ = state.send([.escapePressed, .capture(.closeConfirmed)])
        #expect(state.presentation == .none)
        #expect(state.selectedTab.tab == tab)
    }

    @Test("with snap-back set to History, Close lands on History", arguments: Tab.contentTabs)
    func closeSnapsBackToHistory(from tab: Tab) {
        var settings = Settings.default
        settings.snapBackTarget = .history
        var state = AppState.loaded(settings: settings)
        _ = state.send([.tabChosen(tab), .tabChosen(.create)])
        _ = state.send(.escapePressed)
        #expect(state.presentation == .none)
        #expect(state.selectedTab == .history)
    }

    // MARK: - Done

    @Test("Done commits, then the commit closes capture, snaps back and shows History from the top")
    func doneCommitsAndSnapsBack() throws {
        var state = AppState.loaded(historyTotal: 100)
        _ = state.send([.tabChosen(.history), .listMoved(.pageDown), .listMoved(.down), .rowActivated])
        try #require(state.history.stack.count == 1)
        _ = state.send([.tabChosen(.settings), .tabChosen(.create), .capture(.kindChosen(.barcode))])
        let scanned = state.send(.capture(.textPasted(validEAN13.value)))
        #expect(scanned.first == .lookUpProduct(validEAN13), "the catalog is asked what the code is")
        #expect(scanned.dropFirst().first == .schedule(afterMilliseconds: 800, action: .capture(.autoAdvanceElapsed(token: 1))))
        #expect(scanned.dropFirst(2).map(\.savedDraft?.barcode) == [validEAN13], "the scan is kept as a draft at once")

        let submission = CaptureSubmission(kind: .barcode, barcode: validEAN13, codeSource: .paste)
        #expect(state.send(.capture(.doneTapped)) == [.commitCapture(submission), .firstSaveTick()])
        #expect(state.presentation.capture?.isCommitting == true)

        let effects = state.send(.captureCommitted(recordID: 101, submission: submission))
        #expect(state.presentation == .none)
        #expect(state.selectedTab == .settings)
        #expect(state.history.list == ListPosition())
        #expect(state.history.stack.isEmpty)
        #expect(state.history.totalCount == 101)
        #expect(effects.first == .loadInbox(limit: InboxSnapshot.pageSize))
        #expect(effects.historyRequests == [HistoryPageRequest(start: 0, count: 3 * state.layout.historyListRows)])
        #expect(state.status?.kind == .success)
    }

    @Test("after a commit with snap-back set to History, History is selected")
    func doneSnapsBackToHistory() {
        var settings = Settings.default
        settings.snapBackTarget = .history
        var state = AppState.loaded(settings: settings)
        _ = state.send([.tabChosen(.inbox), .tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("milk"))])
        let submission = CaptureSubmission(kind: .note, note: "milk")
        #expect(state.send(.capture(.doneTapped)) == [.commitCapture(submission), .firstSaveTick()])
        _ = state.send(.captureCommitted(recordID: 1, submission: submission))
        #expect(state.selectedTab == .history)
    }

    @Test("Done on an incomplete capture keeps it open with a notice and commits nothing")
    func doneIncomplete() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.barcode))])
        #expect(state.send(.capture(.doneTapped)) == [])
        #expect(state.presentation.capture?.notice == CaptureIncomplete.noBarcode.message)
    }

    @Test("a failed commit keeps capture open with the message")
    func commitFailedKeepsCaptureOpen() throws {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("milk")), .capture(.doneTapped)])
        #expect(state.send(.capture(.commitFailed("The database is locked."))) == [])
        let capture = try #require(state.presentation.capture)
        #expect(!capture.isCommitting)
        #expect(capture.notice == "The database is locked.")
        #expect(capture.note.text == "milk")
    }

    @Test("Close discards nothing while the commit is in flight: it says why")
    func closeIgnoredWhileCommitting() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("milk")), .capture(.doneTapped)])
        let before = state.presentation.capture
        #expect(state.send(.escapePressed) == [])
        #expect(state.presentation.capture?.saving?.currentReply == .closeWaits)
        var capture = state.presentation.capture
        capture?.saving = before?.saving
        #expect(capture == before)
    }

    // MARK: - Gating

    @Test("with gating on and no chosen request, Create routes to Inbox with an alert and no capture")
    func gatingWithoutRequest() {
        var settings = Settings.default
        settings.captureGating = true
        var state = AppState.loaded(requests: [request(1)], settings: settings)
        _ = state.send(.tabChosen(.settings))
        #expect(state.send(.tabChosen(.create)) == [])
        #expect(state.selectedTab == .inbox)
        #expect(state.presentation == .alert(.requestRequired, over: .none))
        #expect(state.presentation.capture == nil)
    }

    @Test("with gating on, Create after Space on a pending request captures for it")
    func gatingWithChosenRequest() throws {
        var settings = Settings.default
        settings.captureGating = true
        var state = AppState.loaded(requests: [request(1), request(2, kind: .note, title: "Shelf note")], settings: settings)
        _ = state.send([.listMoved(.down), .inbox(.choiceToggled)])
        #expect(state.inbox.chosenRequestID == 2)
        _ = state.send([.tabChosen(.history), .tabChosen(.create)])
        let capture = try #require(state.presentation.capture)
        #expect(capture.request == CaptureRequestLink(id: 2, title: "Shelf note", kind: .note))
        #expect(capture.phase == .note)
        #expect(state.selectedTab == .history)
    }

    @Test("Space again un-chooses the request")
    func spaceTogglesChoice() {
        var state = AppState.loaded(requests: [request(1)])
        _ = state.send([.inbox(.choiceToggled), .inbox(.choiceToggled)])
        #expect(state.inbox.chosenRequestID == nil)
        #expect(state.status == StatusMessage("No request chosen."))
    }

    @Test("Space on a done request does not choose it")
    func spaceOnDoneRequest() {
        var state = AppState.loaded(requests: [request(1, status: .done)])
        _ = state.send(.inbox(.choiceToggled))
        #expect(state.inbox.chosenRequestID == nil)
        #expect(state.status == StatusMessage("Only a pending request can be chosen."))
    }

    @Test("committing a capture for the chosen request un-chooses it")
    func commitClearsChosenRequest() {
        var state = AppState.loaded(requests: [request(4)])
        _ = state.send([.inbox(.choiceToggled), .tabChosen(.create), .capture(.textPasted(validEAN13.value))])
        let submission = CaptureSubmission(kind: .barcode, barcode: validEAN13, requestID: 4, codeSource: .paste)
        #expect(state.send(.capture(.doneTapped)) == [.commitCapture(submission), .firstSaveTick()])
        _ = state.send(.captureCommitted(recordID: 9, submission: submission))
        #expect(state.inbox.chosenRequestID == nil)
    }

    // MARK: - From Inbox

    @Test(
        "Enter on a pending Inbox request starts capture with its kind, linked to it",
        arguments: [
            (CaptureKind.barcode, CapturePhase.barcode), (.note, .note),
        ])
    func enterOnPendingRequest(kind: CaptureKind, phase: CapturePhase) throws {
        var state = AppState.loaded(requests: [request(1), request(2, kind: kind)])
        _ = state.send([.listMoved(.down), .rowActivated])
        let capture = try #require(state.presentation.capture)
        #expect(capture.request == CaptureRequestLink(id: 2, title: "Request 2", kind: kind))
        #expect(capture.kind == kind)
        #expect(capture.phase == phase)
        #expect(state.selectedTab == .inbox)
    }

    @Test("Enter on a done request shows a status message and no capture")
    func enterOnDoneRequest() {
        var state = AppState.loaded(requests: [request(1, status: .done)])
        #expect(state.send(.rowActivated) == [])
        #expect(state.presentation == .none)
        #expect(state.status == StatusMessage("That request is done; pick a pending one."))
    }

    @Test("Enter on an empty Inbox does nothing")
    func enterOnEmptyInbox() {
        var state = AppState.loaded()
        let before = state
        #expect(state.send(.rowActivated) == [])
        #expect(state == before)
    }

    @Test("a request starts capture of its kind, or says why this build cannot", arguments: CaptureKind.allCases)
    func requestOfEachKind(kind: CaptureKind) throws {
        var state = AppState.loaded(requests: [request(1, kind: kind)])
        _ = state.send(.rowActivated)
        if kind.isAvailable {
            #expect(state.presentation.capture?.kind == kind)
            #expect(state.presentation.capture?.request?.id == 1)
            return
        }
        let alert = try #require(state.presentation.alert)
        #expect(alert.title == "\(kind.title) capture is not available")
        #expect(state.presentation.capture == nil)

        // The same through Space + Create.
        _ = state.send([.alertDismissed, .inbox(.choiceToggled), .tabChosen(.create)])
        #expect(state.presentation.alert?.title == "\(kind.title) capture is not available")
        #expect(state.presentation.capture == nil)
    }
}
