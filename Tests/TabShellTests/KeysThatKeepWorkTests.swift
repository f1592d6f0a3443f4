import CaptureMode
import Domain
import Foundation
import Testing

@testable import TabShell

/// Keys that must not throw work away or act unseen: Ctrl-C in a capture, Enter on
/// a destructive question, keys below the minimum size, hints that offer nothing.
@Suite("Keys that keep work")
struct KeysThatKeepWorkTests {
    /// The action `key` sends in `state`, sent.
    @discardableResult
    static func press(_ key: Key, in state: inout AppState) -> [AppEffect] {
        guard let action = KeyMap.action(for: key, in: state) else { return [] }
        return state.send(action)
    }

    static func noteCapture(_ text: String) -> AppState {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note)), .capture(.textTyped(text))])
        return state
    }

    // MARK: - Ctrl-C

    @Test("Ctrl-C in a capture holding work asks what Esc asks; Ctrl-C again saves the whole draft, then quits")
    func ctrlCAsksThenQuitsWithTheDraft() {
        var state = Self.noteCapture("abcdefghijklmnopqrstuvwxyz")
        #expect(Self.press(.control("c"), in: &state) == [])
        #expect(!state.isQuitting)
        #expect(state.presentation.capture?.isConfirmingClose == true, "the Esc question shows")
        #expect(state.presentation.capture?.note.text == "abcdefghijklmnopqrstuvwxyz")

        let effects = Self.press(.control("c"), in: &state)
        #expect(state.isQuitting)
        #expect(effects.last == .quit)
        #expect(state.savedDraft == state.presentation.capture?.draft, "what is on screen is on disk before quitting")
        #expect(state.savedDraft?.note == "abcdefghijklmnopqrstuvwxyz")
    }

    @Test("Ctrl-C's question answers as Esc's: n keeps editing, y discards and stays in the app")
    func ctrlCQuestionIsEscsQuestion() {
        var state = Self.noteCapture("milk")
        Self.press(.control("c"), in: &state)
        Self.press(.character("n"), in: &state)
        #expect(state.presentation.capture?.isConfirmingClose == false)
        #expect(state.presentation.capture?.note.text == "milk")
        Self.press(.control("c"), in: &state)
        Self.press(.character("y"), in: &state)
        #expect(state.presentation.capture == nil)
        #expect(!state.isQuitting)
    }

    @Test("a code typed but not entered is in the draft Ctrl-C writes, at once, not after the typing pause")
    func ctrlCKeepsTheTypedCode() throws {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.barcode))])
        for character in "40063813" { Self.press(.character(character), in: &state) }
        Self.press(.control("c"), in: &state)
        let effects = Self.press(.control("c"), in: &state)
        // Each key was handed to the draft as it was typed: nothing is left for the quit to write.
        #expect(state.savedDraft?.typedCode == "40063813")
        #expect(effects.last == .quit)
    }

    @Test("Ctrl-C quits at once outside a capture, in an empty capture, and below the minimum size")
    func ctrlCQuitsWhereNothingIsLost() {
        var tabs = AppState.loaded()
        #expect(Self.press(.control("c"), in: &tabs) == [.quit])

        var empty = AppState.loaded()
        _ = empty.send([.tabChosen(.create), .capture(.kindChosen(.barcode))])
        #expect(Self.press(.control("c"), in: &empty) == [.quit])

        var picker = AppState.loaded()
        _ = picker.send(.tabChosen(.create))
        #expect(Self.press(.control("c"), in: &picker) == [.quit])

        var tiny = Self.noteCapture("milk")
        _ = tiny.send(.resized(ScreenSize(rows: 6, columns: 20)))
        let effects = Self.press(.control("c"), in: &tiny)
        #expect(tiny.isQuitting, "no question could show there")
        #expect(effects.last == .quit)
    }

    @Test("Ctrl-C acts on every screen (it is never typed into a field)", arguments: KeyContext.allCases)
    func ctrlCActsEverywhere(context: KeyContext) {
        let state = state(yielding: context)
        let action = KeyMap.action(for: .control("c"), in: state)
        #expect(action == .interruptRequested)
    }

    @Test("q on capture's review writes the whole draft before quitting too")
    func quitFromCaptureSavesTheDraft() throws {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.barcode)), .capture(.textPasted(validEAN13.value))])
        _ = state.send(.capture(.enterPressed))
        state.savedDraft = nil
        let effects = Self.press(.character("q"), in: &state)
        #expect(try #require(effects.compactMap(\.savedDraft).last).barcode == validEAN13)
        #expect(effects.last == .quit)
    }

    // MARK: - Destructive questions

    @Test("every question the app asks has a default (Enter) that destroys nothing")
    func everyQuestionDefaultsToTheSafeChoice() {
        let row = historyRow(at: 0, total: 1)
        var capture = CaptureState()
        _ = capture.send(.kindChosen(.note))
        _ = capture.send(.textTyped("milk"))
        let questions: [Alert] =
            Alert.questions + [
                .confirmDeletion(of: row, photoCount: 2), .confirmClearAll(count: 1),
                DraftOffer(id: "x", summary: "A note.", capture: capture).alert, .confirmCaptureClose(capture),
            ]
        #expect(Alert.questions.count >= 3)
        for alert in questions {
            #expect(alert.buttons.contains { $0.action.isDestructive } || alert.title.hasPrefix("Resume"), "\(alert.title) asks about loss")
            #expect(!alert.buttons[alert.defaultButton].action.isDestructive, "Enter on \(alert.title) must not destroy")
        }
    }

    @Test("an alert asked for with a destructive default gets a safe one, built or decoded")
    func aDestructiveDefaultCannotBeMade() throws {
        let alert = Alert(
            title: "Delete?", message: "Gone for good.",
            buttons: [AlertButton("Delete", key: "y", action: .deleteRecord(1)), AlertButton("Keep", key: "n")], defaultButton: 0)
        #expect(alert.defaultButton == 1)
        var encoded = try JSONEncoder().encode(alert)
        encoded = Data(String(decoding: encoded, as: UTF8.self).replacingOccurrences(of: "\"defaultButton\":1", with: "\"defaultButton\":0").utf8)
        #expect(try JSONDecoder().decode(Alert.self, from: encoded).defaultButton == 1)
    }

    @Test("d then Enter on a History record keeps it; the question's hint says Enter cancels")
    func enterOnDeleteKeepsTheRecord() {
        var state = state(yielding: .history)
        Self.press(.character("d"), in: &state)
        #expect(state.presentation.alert?.title.hasPrefix("Delete record") == true)
        #expect(Self.press(.enter, in: &state) == [])
        #expect(state.presentation == .none)
    }

    // MARK: - Below the minimum size

    static let tooSmall = ScreenSize(rows: Layout.minimumSize.rows - 1, columns: Layout.minimumSize.columns + 10)

    @Test("below the minimum size keys do nothing unseen: only q, Ctrl-C and Ctrl-L act", arguments: [false, true])
    func keysDoNothingWhenTooSmall(inCapture: Bool) {
        var state = AppState.loaded(requests: [request(1), request(2)], historyTotal: 5)
        if inCapture { _ = state.send([.tabChosen(.create), .capture(.kindChosen(.barcode))]) }
        _ = state.send(.resized(Self.tooSmall))
        let before = state
        let keys: [Key] = [
            .character("2"), .character("3"), .character("+"), .character("/"), .character("?"), .enter, .escape, .tab,
            .down, .up, .character("j"), .character("d"), .character(" "), .control("d"), .backspace, .function(1), .paste("4006381333931"),
        ]
        for key in keys {
            Self.press(key, in: &state)
            #expect(state == before, "\(key.label()) acted below the minimum size")
        }
        // A mouse wheel reaches the model without the key table.
        _ = state.send(.listMoved(.down))
        _ = state.send(.rowClicked(1))
        #expect(state == before)
        #expect(KeyMap.action(for: .control("l"), in: state) == .redrawRequested)
        #expect(KeyMap.action(for: .character("q"), in: state) == .quitRequested)
        #expect(KeyMap.hints(for: state, unicode: true).map(\.hint) == ["quit"])

        _ = state.send(.resized(ScreenSize(rows: 24, columns: 80)))
        #expect(state.presentation.capture?.kind == (inCapture ? .barcode : nil), "what was open is still open, unchanged")
        #expect(state.selectedTab == .inbox)
    }

    // MARK: - The empty Inbox, the gating alert

    @Test("the empty Inbox offers no Enter, Space or moves, in the hint line and in ? help")
    func emptyInboxOffersNothingDead() {
        var state = AppState.loaded()
        let hints = KeyMap.hints(for: state, unicode: true).map(\.keys)
        #expect(!hints.contains("Enter"))
        #expect(!hints.contains("Space"))
        #expect(KeyMap.bindings(for: .inbox, in: state).isEmpty)
        _ = state.send(.helpRequested)
        let help = KeyMap.helpLines(in: state, unicode: true)
        #expect(!help.contains(.section(KeyContext.inbox.title)))
        #expect(help.contains(.section(KeyContext.history.title)), "other screens' keys are still listed")

        var full = AppState.loaded(requests: [request(1)])
        #expect(KeyMap.hints(for: full, unicode: true).map(\.keys).contains("Enter"))
        _ = full.send(.helpRequested)
        #expect(KeyMap.helpLines(in: full, unicode: true).contains(.binding(keys: "Enter", help: "Capture for the highlighted request")))
    }

    @Test("an empty History offers no Enter, d or moves; b and D still act")
    func emptyHistoryOffersNothingDead() {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.history))
        let hints = KeyMap.hints(for: state, unicode: true).map(\.hint)
        #expect(!hints.contains("open"))
        #expect(!hints.contains("delete"))
        #expect(hints.contains("mode"))
        #expect(KeyMap.action(for: .enter, in: state) == nil)
        #expect(KeyMap.action(for: .character("D"), in: state) == .history(.clearAllRequested))
        #expect(KeyMap.hints(for: AppState.loaded(historyTotal: 3).with(tab: .history), unicode: true).map(\.hint).contains("open"))
    }

    @Test("with capture limited to requests and none pending, the alert says how to add one")
    func gatingWithoutRequestsSaysHowToAddOne() throws {
        var settings = Settings.fixed
        settings.captureGating = true
        var empty = AppState.loaded(settings: settings)
        _ = empty.send(.tabChosen(.create))
        let alert = try #require(empty.presentation.alert)
        #expect(alert == .noRequestToCapture)
        #expect(alert.message.contains("tabshell inbox add"))
        #expect(!alert.message.contains("Highlight"))

        var answered = AppState.loaded(requests: [request(1, status: .done)], settings: settings)
        _ = answered.send(.tabChosen(.create))
        #expect(answered.presentation.alert == .noRequestToCapture)

        var pending = AppState.loaded(requests: [request(1)], settings: settings)
        _ = pending.send(.tabChosen(.create))
        #expect(pending.presentation.alert == .requestRequired)
    }
}

extension AppState {
    /// This state with `tab` chosen.
    func with(tab: Tab) -> AppState {
        var state = self
        _ = state.send(.tabChosen(tab))
        return state
    }
}
