import Foundation
import TabShell
import Testing

/// `tabshell serve` signals a session it is about to close for idleness (SIGUSR1): the app says
/// so on its status line, in a capture too, and a key takes the notice away.
@Suite struct IdleSessionNoticeTests {
    @Test func theNoticeIsOneLineOnTheStatusLineUntilTheNextKey() {
        var state = AppState.loaded(historyTotal: 3)

        let effects = state.send(.idleSessionClosingSoon)

        #expect(effects.isEmpty)
        #expect(state.status?.text == AppState.idleSessionClosingSoonMessage)
        #expect(!AppAction.idleSessionClosingSoon.isUserInput, "the notice is not a key: it keeps nothing alive")
        _ = state.send(.listMoved(.down))
        #expect(state.status == nil)
    }

    @Test func aCaptureInProgressKeepsItsWorkAndShowsTheNotice() {
        var state = AppState.loaded(historyTotal: 3)
        _ = state.send(.tabChosen(.create))
        _ = state.send(.capture(.kindChosen(.note)))
        _ = state.send(.capture(.textTyped("half a note")))
        let before = state.presentation.capture

        _ = state.send(.idleSessionClosingSoon)

        #expect(state.status?.text == AppState.idleSessionClosingSoonMessage)
        #expect(state.presentation.capture == before && before != nil)
    }
}
