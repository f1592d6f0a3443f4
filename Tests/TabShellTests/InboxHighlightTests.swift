import CaptureMode
import Domain
import Testing

@testable import TabShell

/// After a Done for an Inbox request, the request shows as done with a brief highlight once the
/// Inbox is on screen.
@Suite("Shell: Inbox highlight")
struct InboxHighlightTests {
    /// A barcode capture for request 2, committed.
    static func commitForRequest(settings: Settings = .default, from tab: Tab = .inbox) -> (AppState, [AppEffect]) {
        var state = AppState.loaded(requests: [request(1), request(2)], historyTotal: 10, settings: settings)
        _ = state.send(.tabChosen(tab))
        if tab == .inbox {
            _ = state.send([.listMoved(.down), .rowActivated])
        } else {
            _ = state.send([.tabChosen(.inbox), .listMoved(.down), .inbox(.choiceToggled), .tabChosen(tab), .tabChosen(.create)])
        }
        _ = state.send(.capture(.textPasted(validEAN13.value)))
        let submission = CaptureSubmission(kind: .barcode, barcode: validEAN13, requestID: 2)
        _ = state.send(.capture(.doneTapped))
        let effects = state.send(.captureCommitted(recordID: 11, submission: submission))
        return (state, effects)
    }

    @Test("back on the Inbox, the answered request is highlighted and a timer ends it")
    func highlightOnReturn() throws {
        var (state, effects) = Self.commitForRequest()
        #expect(state.selectedTab == .inbox)
        let highlight = try #require(state.inbox.highlight)
        #expect(highlight == RequestHighlight(requestID: 2, token: 1, isShowing: true))
        #expect(state.inbox.highlightedRequestID == 2)
        #expect(effects.contains(.loadInbox(limit: InboxSnapshot.pageSize)), "the reload shows it as done")
        #expect(effects.contains(.schedule(afterMilliseconds: 1500, action: .inbox(.highlightEnded(token: 1)))))

        _ = state.send(.inbox(.loaded(snapshot([request(1), request(2, status: .done)]))))
        #expect(state.inbox.highlightedRequestID == 2)
        #expect(state.send(.inbox(.highlightEnded(token: 1))) == [])
        #expect(state.inbox.highlight == nil)
    }

    @Test("when capture snaps back to another tab, the highlight waits until the Inbox shows")
    func highlightWaitsForTheInbox() throws {
        var settings = Settings.default
        settings.snapBackTarget = .history
        var (state, effects) = Self.commitForRequest(settings: settings, from: .settings)
        #expect(state.selectedTab == .history)
        #expect(state.inbox.highlight?.isShowing == false)
        #expect(state.inbox.highlightedRequestID == nil)
        #expect(!effects.contains { if case .schedule(_, .inbox(.highlightEnded)) = $0 { true } else { false } })

        #expect(state.send(.tabChosen(.inbox)) == [.schedule(afterMilliseconds: 1500, action: .inbox(.highlightEnded(token: 1)))])
        #expect(state.inbox.highlightedRequestID == 2)
        #expect(state.send(.tabChosen(.settings)) == [])
        #expect(state.send(.tabChosen(.inbox)) == [], "one timer per highlight")
    }

    @Test("an old timer does not end a newer highlight")
    func staleTimer() {
        var (state, _) = Self.commitForRequest()
        var second = state
        _ = second.send([.tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("x")), .capture(.doneTapped)])
        _ = second.send(.captureCommitted(recordID: 12, submission: CaptureSubmission(kind: .note, note: "x", requestID: 1)))
        #expect(second.inbox.highlight == RequestHighlight(requestID: 1, token: 2, isShowing: true))
        _ = second.send(.inbox(.highlightEnded(token: 1)))
        #expect(second.inbox.highlightedRequestID == 1)
        state = second
        _ = state.send(.inbox(.highlightEnded(token: 2)))
        #expect(state.inbox.highlight == nil)
    }

    @Test("a capture for no request highlights nothing")
    func noRequestNoHighlight() {
        var state = AppState.loaded(requests: [request(1)])
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped("x")), .capture(.doneTapped)])
        let effects = state.send(.captureCommitted(recordID: 1, submission: CaptureSubmission(kind: .note, note: "x")))
        #expect(state.inbox.highlight == nil)
        #expect(!effects.contains { if case .schedule(_, .inbox(.highlightEnded)) = $0 { true } else { false } })
    }
}
