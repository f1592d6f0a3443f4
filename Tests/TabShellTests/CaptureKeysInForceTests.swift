import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// Capture's keys as the key table in force has them: Backspace never removes a
/// batch's scan, Ctrl-X does and says how to put it back, the picker shows each kind's key,
/// sentences name rebound keys as rebound, Esc on a draft's question says the draft is kept,
/// and typed text reaches the draft with the key that typed it.
@Suite struct CaptureKeysInForceTests {
    static func batch(overrides: KeyOverrides = .none) -> AppState {
        var state = AppState.loaded()
        state.keyOverrides = overrides
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.batch))])
        for code in ["4006381333931", "96385074"] {
            _ = state.send(.capture(.textPasted(code)))
        }
        return state
    }

    static func press(_ key: Key, in state: inout AppState) -> [AppEffect] {
        guard let action = KeyMap.action(for: key, in: state) else { return [] }
        return state.send(action)
    }

    static func hints(_ state: AppState) -> [String] {
        KeyMap.hints(for: state, unicode: true).map { "\($0.keys) \($0.hint)" }
    }

    @Test func backspaceOnTheEmptyBatchFieldKeepsEveryScan() throws {
        var state = Self.batch()
        for character in "123" { _ = Self.press(.character(character), in: &state) }
        for _ in 0..<30 { _ = Self.press(.backspace, in: &state) }
        let capture = try #require(state.presentation.capture)
        #expect(capture.batch.scanCount == 2, "holding Backspace cleared the typo and nothing else")
        #expect(capture.batchMessage == "The field is empty; Ctrl-X removes the last scan.")
    }

    @Test func theHintOffersRemovalAndThenPuttingBack() throws {
        var state = Self.batch()
        #expect(Self.hints(state).contains("Ctrl-X remove"))
        #expect(!Self.hints(state).contains("Ctrl-R put back"), "nothing removed yet")
        _ = Self.press(.control("x"), in: &state)
        #expect(state.presentation.capture?.batch.scanCount == 1)
        #expect(state.presentation.capture?.batchMessage == "Removed 96385074. Ctrl-R puts it back.")
        #expect(Self.hints(state).contains("Ctrl-R put back"))
        _ = Self.press(.control("r"), in: &state)
        #expect(state.presentation.capture?.batch.lines.map(\.barcode.value) == ["4006381333931", "96385074"])
    }

    @Test func reboundRemovalKeysAreNamedAsRebound() throws {
        let overrides = KeyOverrides([
            "remove_scan": [.control("k")], "restore_scan": [.function(5)], "photo_remove": [.function(8)], "capture_view_photo": [.function(9)],
        ])
        var state = Self.batch(overrides: overrides)
        #expect(state.captureConfig.keyNames == CaptureKeyNames(removeScan: "Ctrl-K", restoreScan: "F5", removePhoto: "F8", viewPhoto: "F9"))
        #expect(AppState().captureConfig.keyNames == CaptureKeyNames(), "the defaults are the table's")
        _ = Self.press(.backspace, in: &state)
        #expect(state.presentation.capture?.batchMessage == "The field is empty; Ctrl-K removes the last scan.")
        _ = Self.press(.control("k"), in: &state)
        #expect(state.presentation.capture?.batchMessage == "Removed 96385074. F5 puts it back.")
        #expect(KeyMap.captureKeyNames(overrides: KeyOverrides(["remove_scan": []])).removeScan == nil, "unbound: not offered")
    }

    @Test func thePickerNamesEachKindsKeyInForce() {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.create))
        let keys = KeyMap.kindKeys(in: state, unicode: true)
        #expect(keys == [.barcode: "b", .photos: "p", .product: "r", .note: "n", .batch: "s"].filter { CaptureKind.available.contains($0.key) })
        state.keyOverrides = KeyOverrides(["kind_batch": [.character("t")]])
        #expect(KeyMap.kindKeys(in: state, unicode: true)[.batch] == (CaptureKind.available.contains(.batch) ? "t" : nil))
    }

    @Test func escOnTheDraftQuestionSaysTheDraftIsKept() throws {
        var state = AppState.loaded()
        let draft = CaptureDraft(kind: .note, phase: "note", note: "milk", updatedAt: epoch)
        _ = state.send(.recoveryFinished(drafts: [RecoveredDraft(id: "a", draft: draft)], summary: ""))
        #expect(state.presentation.alert?.title == "Resume the unfinished capture?")
        _ = Self.press(.escape, in: &state)
        #expect(state.presentation == .none)
        #expect(state.status?.text == "Kept as a draft; it is offered again at the next start.")
        #expect(state.drafts.offers.map(\.id) == ["a"], "nothing was discarded")
    }

    @Test func escOnAnotherAlertSaysNothingOfDrafts() {
        var state = AppState.loaded()
        state.presentation = .alert(Alert(title: "Hello", message: "Just so you know."), over: .none)
        _ = Self.press(.escape, in: &state)
        #expect(state.status == nil)
    }

    @Test(arguments: [CaptureKind.photos, .barcode, .note, .batch])
    func everyTypedKeyIsHandedToTheDraftAtOnce(kind: CaptureKind) throws {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(kind))])
        for character in "/tmp/a" {
            let saved = Self.press(.character(character), in: &state).compactMap(\.savedDraft)
            let draft = try #require(saved.last, "the key typed is in a draft save of its own turn")
            let typed = kind == .photos ? draft.typedPath : kind == .note ? draft.note : draft.typedCode
            #expect(typed?.last == character)
        }
    }
}
