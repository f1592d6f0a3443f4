import CaptureMode
import Testing

/// Capture's overlays are one value (`CaptureState.overlay`): at most one shows over the phase.
@Suite("Capture: overlays")
struct CaptureOverlayTests {
    /// A note capture with something typed, so Close asks first.
    private static func typedNote() -> CaptureState {
        var state = CaptureState()
        _ = state.send(.kindChosen(.note))
        _ = state.send(.textTyped("shelf 4"))
        return state
    }

    @Test("the keys open with their scroll at the top, any key closes them, Esc only closes them")
    func keys() {
        var state = Self.typedNote()
        #expect(state.send(.keysToggled) == [])
        #expect(state.overlay == .keys(scrollOffset: 0))
        #expect(!state.isEditingText)
        #expect(state.send(.closeTapped) == [])
        #expect(state.overlay == .none)
        _ = state.send(.keysToggled)
        _ = state.send(.textTyped("!"))
        #expect(state.overlay == .none)
        #expect(state.note.text == "shelf 4!")
    }

    @Test("Done with the keys showing closes them and commits; while saving the keys open again, and the outcome closes them")
    func doneOverTheKeys() {
        var state = Self.typedNote()
        _ = state.send(.keysToggled)
        #expect(state.send(.doneTapped).count == 2)
        #expect(state.overlay == .none)
        #expect(state.isCommitting && !state.isShowingKeys)
        #expect(state.send(.keysToggled) == [])
        #expect(state.isShowingKeys && state.isCommitting, "the keys show while saving")
        _ = state.send(.commitFailed("The database is locked."))
        #expect(state.overlay == .none)
        #expect(!state.isCommitting)
        #expect(state.notice == "The database is locked.")
    }

    @Test("the question before discarding takes only its answers; the keys wait")
    func question() {
        var state = Self.typedNote()
        _ = state.send(.closeTapped)
        #expect(state.overlay == .confirmingClose)
        #expect(state.send(.keysToggled) == [])
        #expect(state.send(.textTyped("x")) == [])
        #expect(state.overlay == .confirmingClose)
        #expect(state.note.text == "shelf 4")
        #expect(state.send(.closeConfirmed) == [.dismiss])
    }
}
