import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// The Inbox's keys for a selected request: `o` reopens a done one, `d` or Del removes one after
/// a question whose Enter keeps it.
@Suite("Inbox: reopen and remove a request")
struct InboxRequestKeysTests {
    static func press(_ key: Key, in state: inout AppState) -> [AppEffect] {
        guard let action = KeyMap.action(for: key, in: state) else { return [] }
        return state.send(action)
    }

    @Test func oReopensADoneRequestAndSaysSoOfAPendingOne() {
        var state = AppState.loaded(requests: [request(1), request(2, status: .done)])
        #expect(Self.press(.character("o"), in: &state).isEmpty)
        #expect(state.status?.text == "That request is pending already.")
        _ = state.send(.listMoved(.end))
        #expect(Self.press(.character("o"), in: &state) == [.reopenRequest(2)])
        // Storage's answer is said, and the Inbox read again
        let effects = state.send(.inbox(.requestChanged(message: "Request #2 is pending again.", succeeded: true)))
        #expect(effects.contains(.loadInbox(limit: InboxSnapshot.pageSize)))
        #expect(state.status?.text == "Request #2 is pending again.")
    }

    @Test(arguments: [Key.character("d"), .delete]) func removingAsksFirstAndEnterKeeps(key: Key) {
        var state = AppState.loaded(requests: [request(1, title: "Shelf 4")])
        #expect(Self.press(key, in: &state).isEmpty)
        let alert = state.presentation.alert
        #expect(alert?.title == "Remove request #1?")
        #expect(alert?.message.contains("Records that answered it stay in History") == true)
        // Enter presses the default button, which keeps it
        #expect(Self.press(.enter, in: &state).isEmpty)
        #expect(state.presentation.alert == nil)
        // y removes it
        _ = Self.press(key, in: &state)
        #expect(Self.press(.character("y"), in: &state) == [.removeRequest(1)])
    }

    @Test func theKeysAreInTheHintLineWhereTheyAct() {
        var state = AppState.loaded(requests: [request(1), request(2, status: .done)])
        var hints = KeyMap.hints(for: state, unicode: true).map(\.hint)
        #expect(hints.contains("remove") && !hints.contains("reopen"), "a pending request is not reopened")
        _ = state.send(.listMoved(.end))
        hints = KeyMap.hints(for: state, unicode: true).map(\.hint)
        #expect(hints.contains("remove") && hints.contains("reopen"))
    }

    @Test func deletingARecordThatAnsweredARequestSaysItBecomesPendingAgain() {
        var row = historyRow(at: 0, total: 1)
        row.requestID = 4
        row.requestTitle = "Shelf 4"
        row.requestAfterDeletion = .pendingAgain
        let alert = Alert.confirmDeletion(of: row, photoCount: 0)
        #expect(alert.message.hasSuffix("The request \"Shelf 4\" it answered becomes pending again."))
        #expect(alert.defaultButton == 1 && !alert.buttons[1].action.isDestructive)
    }

    @Test(arguments: [
        (RequestAfterDeletion.answeredByAnother, "The request \"Shelf 4\" it answered stays done: another record answers it too."),
        (.pendingAlready, "The request \"Shelf 4\" it answered stays pending."),
    ])
    func deletingOneOfSeveralAnswersSaysTheRequestStaysAsItIs(fate: RequestAfterDeletion, sentence: String) {
        var row = historyRow(at: 0, total: 1)
        row.requestID = 4
        row.requestTitle = "Shelf 4"
        row.requestAfterDeletion = fate
        let alert = Alert.confirmDeletion(of: row, photoCount: 0)
        #expect(alert.message.hasSuffix(sentence), "\(alert.message)")
        #expect(!alert.message.contains("becomes pending again"))
    }
}
