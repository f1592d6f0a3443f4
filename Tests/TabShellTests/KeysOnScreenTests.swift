import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// The screen tells the truth about keys: what a text names comes from the key
/// table in force, Settings' ← and → step a value, and a sheet never minimizes the bar.
@Suite struct KeysOnScreenTests {
    /// Settings with the highlight on `row`.
    static func onSettings(row: SettingsRow = .tabBarPosition, overrides: KeyOverrides = .none) -> AppState {
        var state = AppState.loaded(requests: [request(1)], historyTotal: 10)
        state.keyOverrides = overrides
        _ = state.send(.tabChosen(.settings))
        for _ in 0..<row.rawValue { _ = state.send(.listMoved(.down)) }
        return state
    }

    static func press(_ key: Key, _ state: inout AppState) -> [AppEffect] {
        guard let action = KeyMap.action(for: key, in: state) else { return [] }
        return state.send(action)
    }

    // MARK: - Settings' ← and →

    @Test func leftAndRightStepTheHighlightedValueAndStayOnSettings() {
        var state = Self.onSettings(row: .tabBarPosition)
        let before = state.settings.tabBarPosition
        let effects = Self.press(.right, &state)
        #expect(state.selectedTab == .settings)
        #expect(state.settings.tabBarPosition != before)
        #expect(effects.contains(.saveSettings(state.settings)))
        _ = Self.press(.left, &state)
        #expect(state.settings.tabBarPosition == before, "← steps back to where → came from")
        #expect(state.selectedTab == .settings)
    }

    @Test func leftStepsBackwardThroughAChoiceOfMany() {
        var state = Self.onSettings(row: .maximumPhotos)
        var forward = state.settings
        forward.cycle(.maximumPhotos, forward: false)
        _ = Self.press(.left, &state)
        #expect(state.settings.maximumPhotos == forward.maximumPhotos)
        _ = Self.press(.enter, &state)
        #expect(state.settings.maximumPhotos == Settings.default.maximumPhotos, "Enter steps forward, as →")
    }

    @Test func tabAndDigitsStillSwitchTabsFromSettings() {
        var state = Self.onSettings()
        _ = Self.press(.tab, &state)
        #expect(state.selectedTab == .inbox)
        state = Self.onSettings()
        _ = Self.press(.backTab, &state)
        #expect(state.selectedTab == .history)
        state = Self.onSettings()
        _ = Self.press(.character("1"), &state)
        #expect(state.selectedTab == .inbox)
    }

    @Test func onClearHistoryTheArrowsSwitchTabsAsTheHintSays() {
        var state = Self.onSettings(row: .clearHistory)
        let settings = state.settings
        #expect(KeyMap.hints(for: state, unicode: true).contains { $0 == ("←→", "tabs") })
        _ = Self.press(.right, &state)
        #expect(state.selectedTab == .inbox)
        #expect(state.settings == settings)
    }

    @Test func settingsHintsAndHelpSayWhatTheArrowsDoThere() {
        let state = Self.onSettings()
        let hints = KeyMap.hints(for: state, unicode: true)
        #expect(hints.contains { $0 == ("←→", "change") })
        #expect(hints.contains { $0 == ("Tab", "tabs") }, "\(hints)")
        #expect(!hints.contains { $0.keys == "←→" && $0.hint == "tabs" })
        var sheet = state
        _ = sheet.send(.helpRequested)
        let lines = KeyMap.helpLines(in: sheet, unicode: true)
        #expect(lines.contains(.binding(keys: "l/Tab", help: "Next tab (skips + Create)")))
        #expect(lines.contains(.binding(keys: "←", help: "The highlighted setting's previous value")))
        // A rebound step is named as it is, and the arrows go back to the tabs.
        let rebound = Self.onSettings(overrides: KeyOverrides(["setting_previous": [.character("-")], "setting_next": [.character("=")]]))
        #expect(KeyMap.hints(for: rebound, unicode: true).contains { $0 == ("-", "change") })
        #expect(KeyMap.hints(for: rebound, unicode: true).contains { $0 == ("←→", "tabs") })
    }

    @Test func theSettingChangedIsKeptUntilTheHighlightOrTheTabMoves() {
        var state = Self.onSettings(row: .theme)
        #expect(state.settingsScreen.changedRow == nil)
        _ = Self.press(.right, &state)
        #expect(state.settingsScreen.changedRow == .theme)
        _ = Self.press(.down, &state)
        #expect(state.settingsScreen.changedRow == nil)
        _ = Self.press(.enter, &state)
        #expect(state.settingsScreen.changedRow == .autoAdvance)
        _ = Self.press(.tab, &state)
        #expect(state.settingsScreen.changedRow == nil)
    }

    // MARK: - Sheets and the tab bar

    @Test func scrollingTheHelpSheetNeverMinimizesTheBar() {
        var state = AppState.loaded(requests: (1...60).map { request(Int64($0)) }, settings: .default)
        _ = state.send(.helpRequested)
        for key: Key in [.pageDown, .pageDown, .character("j"), .character("j"), .end, .character(" ")] {
            _ = Self.press(key, &state)
            #expect(!state.isTabBarMinimized, "\(key.label()) in the help sheet")
        }
        guard case let .sheet(.help(help)) = state.presentation else {
            Issue.record("help is not showing")
            return
        }
        #expect(help.scrollOffset > 0, "the sheet scrolled")
    }

    @Test func underASheetTheMinimizedBarOffersNoKeyThatDoesNothingThere() {
        var state = AppState.loaded(requests: (1...60).map { request(Int64($0)) }, settings: .default)
        for _ in 0..<30 { _ = Self.press(.down, &state) }
        #expect(state.isTabBarMinimized)
        #expect(KeyMap.tabKeysLabel(in: state, unicode: true) == "1-4")
        _ = Self.press(.character("?"), &state)
        #expect(state.isTabBarMinimized)
        #expect(KeyMap.tabKeysLabel(in: state, unicode: true) == nil, "no tab key acts in the help sheet")
        for key in [Key.character("1"), .character("3"), .right, .tab] {
            #expect(KeyMap.action(for: key, in: state).map { if case .tabChosen = $0 { true } else { false } } != true)
        }
    }

    // MARK: - Names from the table in force

    @Test func keyPhrasesComeFromTheTableInForce() {
        var state = AppState.loaded(historyTotal: 0)
        _ = state.send(.tabChosen(.history))
        #expect(KeyMap.keyPhrase(sending: .tabChosen(.create), in: state, unicode: true) == "2 or +")
        state.keyOverrides = KeyOverrides(["create": [.character("c")]])
        #expect(KeyMap.keyPhrase(sending: .tabChosen(.create), in: state, unicode: true) == "c")
        state.keyOverrides = KeyOverrides(["create": []])
        #expect(KeyMap.keyPhrase(sending: .tabChosen(.create), in: state, unicode: true) == nil)
        state.keyOverrides = KeyOverrides(["tab_inbox": [.character("i")], "create": [.character("c")]])
        #expect(KeyMap.tabKeysLabel(in: state, unicode: true) == "i/c/3/4")
        state.keyOverrides = KeyOverrides(["create": [.function(2)]])
        #expect(KeyMap.tabKeysLabel(in: state, unicode: true) == "1/F2/3/4")
    }

    @Test func theRequestRequiredQuestionNamesTheInboxKeysInForce() {
        var settings = Settings.fixed
        settings.captureGating = true
        var state = AppState.loaded(requests: [request(1)], settings: settings)
        _ = state.send(.tabChosen(.create))
        #expect(state.presentation.alert?.message.contains("press Enter to capture for it, or Space to choose it") == true)
        state = AppState.loaded(requests: [request(1)], settings: settings)
        state.keyOverrides = KeyOverrides(["inbox_capture": [.character("c")], "inbox_choose": []])
        _ = state.send(.tabChosen(.create))
        let message = state.presentation.alert?.message ?? ""
        #expect(message.contains("press c to capture for it."), "\(message)")
        #expect(!message.contains("Enter") && !message.contains("Space"))
    }

    @Test func aCopyWithNothingToCopyNamesTheKeysInForce() {
        var state = AppState.loaded(historyTotal: 1)
        _ = state.send(.tabChosen(.history))
        let note = HistoryRow(id: 7, kind: .note, barcode: nil, note: " ", requestID: nil, requestTitle: nil, createdAt: Date(timeIntervalSince1970: 0))
        _ = state.send(.history(.pageLoaded(HistoryPage(start: 0, rows: [note], totalCount: 1, mode: .all))))
        _ = state.send(.history(.copyRequested(.code)))
        #expect(state.status?.text == "Record #7 has no code or text to copy; Y copies the record as JSON.")
        state.keyOverrides = KeyOverrides(["copy_json": [.character("J")]])
        _ = state.send(.history(.copyRequested(.code)))
        #expect(state.status?.text == "Record #7 has no code or text to copy; J copies the record as JSON.")
        state.keyOverrides = KeyOverrides(["copy_json": []])
        _ = state.send(.history(.copyRequested(.code)))
        #expect(state.status?.text == "Record #7 has no code or text to copy.")
    }

    @Test func everyKeyAPhraseNamesSendsTheActionItNamesItFor() {
        for context in KeyContext.allCases {
            let state = state(yielding: context)
            for binding in KeyMap.bindings(for: context, in: state) {
                guard let action = binding.action else { continue }
                for key in KeyMap.keys(sending: action, in: state) {
                    #expect(KeyMap.action(for: key, in: state) == action, "\(key.label()) for \(binding.name) in \(context)")
                }
            }
        }
    }
}
