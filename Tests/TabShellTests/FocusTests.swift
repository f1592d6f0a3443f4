import CaptureMode
import TabShell
import Testing

/// One focus computation: `AppState.focus` names what takes input, and the key table's contexts
/// are read from it.
@Suite struct FocusTests {
    @Test(
        "each screen's focus, and the key table's most specific context is the focus's",
        arguments: [
            (KeyContext.inbox, Focus.inbox), (.history, .history), (.historyDetail, .historyDetail), (.settings, .settings),
            (.capturePicker, .capture(.picker)), (.captureBarcode, .capture(.barcode)), (.captureNote, .capture(.note)),
            (.captureReview, .capture(.review)), (.capturePhotos, .capture(.photos)), (.captureKeys, .capture(.keys)),
            (.captureConfirmClose, .capture(.confirmClose)), (.search, .search), (.help, .help), (.alert, .alert),
            (.confirm, .question), (.photoViewer, .viewer), (.tooSmall, .tooSmall),
        ])
    func focusOfEachScreen(context: KeyContext, focus: Focus) {
        let state = state(yielding: context)
        #expect(state.focus == focus)
        #expect(KeyMap.contexts(for: state).first == context)
        // A content tab with nothing over it: its own keys and the tab bar's act.
        #expect(KeyMap.contexts(for: state).contains(.tabs) == [.inbox, .history, .historyDetail, .settings].contains(focus))
    }

    @Test("one overlay at a time: the list of keys has focus until Esc, and waits while the question shows")
    func oneOverlayAtATime() {
        var note = state(yielding: .captureNote)
        var question = state(yielding: .captureConfirmClose)
        _ = note.send(.capture(.keysToggled))
        #expect(note.focus == .capture(.keys))
        _ = note.send(.escapePressed)
        #expect(note.focus == .capture(.note))
        _ = question.send(.capture(.keysToggled))
        #expect(question.focus == .capture(.confirmClose))
    }

    @Test("below the minimum size nothing has focus but the notice, whatever is presented")
    func tooSmallOverCapture() {
        var state = state(yielding: .captureNote)
        _ = state.send(.resized(ScreenSize(rows: Layout.minimumSize.rows - 1, columns: Layout.minimumSize.columns)))
        #expect(state.focus == .tooSmall)
        #expect(state.focusedScreen == .capture(.note))
    }
}
