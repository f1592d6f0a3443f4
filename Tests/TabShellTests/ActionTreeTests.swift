import CaptureMode
import TabShell
import Testing

/// AppAction composes each feature's actions (`.inbox(InboxAction)`, `.history(HistoryAction)`,
/// …); the router hands a feature its keys only while it shows, its answers always.
@Suite struct ActionTreeTests {
    @Test("a feature's keys act only while it shows")
    func keysActWhileTheFeatureShows() {
        var state = AppState.loaded(requests: [request(1), request(2)], historyTotal: 5)
        _ = state.send(.tabChosen(.history))
        let onHistory = state
        #expect(state.send(.inbox(.choiceToggled)) == [])
        #expect(state.send(.inbox(.input(.moved(.down)))) == [])
        #expect(state.send(.settings(.input(.activated))) == [])
        #expect(state == onHistory)
        _ = state.send(.tabChosen(.inbox))
        _ = state.send(.inbox(.choiceToggled))
        #expect(state.inbox.chosenRequestID == 1)
        #expect(state.send(.history(.deleteRequested)) == [])
        #expect(state.presentation == .none)
    }

    @Test("a feature's answers arrive wherever the person is")
    func answersAlwaysArrive() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.settings), .helpRequested])
        _ = state.send(.inbox(.loaded(snapshot([request(7)]))))
        #expect(state.inbox.requests.map(\.id) == [7])
    }
}
