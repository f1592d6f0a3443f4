import CaptureMode
import Domain
import TabShell
import Testing

@Suite("Shell: Settings")
struct SettingsTests {
    @Test("Enter on a Settings row changes it and asks to save")
    func rowActivatedCyclesAndSaves() {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.settings))
        let effects = state.send(.rowActivated)
        #expect(state.settings.snapBackTarget == .history)
        #expect(effects == [.saveSettings(state.settings)])
    }

    @Test("each setting's row cycles it and back", arguments: SettingsRow.allCases.filter(\.isSetting))
    func eachRowCycles(row: SettingsRow) {
        var state = AppState.loaded()
        let original = state.settings
        #expect(state.send(.settings(.rowCycled(row, forward: true))) == [.saveSettings(state.settings)])
        #expect(state.settings != original)
        #expect(state.settingsScreen.list.cursor == row.rawValue)
        _ = state.send(.settings(.rowCycled(row, forward: false)))
        #expect(state.settings == original)
    }

    @Test("booleans and two-way choices toggle")
    func toggles() {
        var settings = Settings.default
        settings.cycle(.captureGating, forward: true)
        settings.cycle(.tabBarPosition, forward: true)
        settings.cycle(.colorEnabled, forward: true)
        settings.cycle(.freeTextCodes, forward: true)
        settings.cycle(.snapBackTarget, forward: true)
        #expect(
            settings
                == Settings(
                    snapBackTarget: .history, captureGating: true, tabBarPosition: .top, colorEnabled: false,
                    autoAdvanceMilliseconds: 800, allowFreeTextCodes: true
                ))
    }

    @Test("auto-advance steps through its choices and wraps around")
    func autoAdvanceCycles() {
        var settings = Settings.default
        var seen: [Int] = []
        for _ in Settings.autoAdvanceChoices {
            settings.cycle(.autoAdvance, forward: true)
            seen.append(settings.autoAdvanceMilliseconds)
        }
        #expect(seen == [1500, 3000, 0, 400, 800])
        settings.cycle(.autoAdvance, forward: false)
        #expect(settings.autoAdvanceMilliseconds == 400)
    }

    @Test("auto-advance from a stored value that is not a choice steps to the neighbouring choices")
    func autoAdvanceFromOffListValue() {
        // Storage accepts any value in 0...60000, so a value between the choices can come back from the database.
        var forward = Settings(autoAdvanceMilliseconds: 1000)
        forward.cycle(.autoAdvance, forward: true)
        #expect(forward.autoAdvanceMilliseconds == 1500)

        var backward = Settings(autoAdvanceMilliseconds: 1000)
        backward.cycle(.autoAdvance, forward: false)
        #expect(backward.autoAdvanceMilliseconds == 800)
    }

    @Test("changed capture settings apply to the next capture")
    func settingsApplyToNextCapture() {
        var state = AppState.loaded()
        _ = state.send([.settings(.rowCycled(.freeTextCodes, forward: true)), .settings(.rowCycled(.autoAdvance, forward: false))])
        _ = state.send(.tabChosen(.create))
        #expect(state.presentation.capture?.config == CaptureConfig(autoAdvanceMilliseconds: 400, allowsFreeText: true))
    }

    // MARK: - Clear History

    @Test("the Clear History row asks to delete every record, saving no setting")
    func clearHistoryRow() throws {
        var state = AppState.loaded(historyTotal: 1_234)
        _ = state.send(.tabChosen(.settings))
        let before = state.settings
        #expect(state.send(.settings(.rowCycled(.clearHistory, forward: true))) == [])
        #expect(state.settings == before)
        #expect(state.settingsScreen.list.cursor == SettingsRow.clearHistory.rawValue)
        let alert = try #require(state.presentation.alert)
        #expect(alert == .confirmClearAll(count: 1_234))
        #expect(alert.message.contains("Delete all 1,234 records and their photos?"))

        // Enter on the row does the same.
        _ = state.send(.alertDismissed)
        #expect(state.presentation == .none)
        _ = state.send(.rowActivated)
        #expect(state.presentation.alert == .confirmClearAll(count: 1_234))
    }

    @Test("with nothing in History, Clear History only says so")
    func clearHistoryWhenEmpty() {
        var state = AppState.loaded(historyTotal: 0)
        _ = state.send(.tabChosen(.settings))
        #expect(state.send(.settings(.rowCycled(.clearHistory, forward: true))) == [])
        #expect(state.presentation == .none)
        #expect(state.status == StatusMessage("History is already empty."))
    }
}

@Suite struct PhotoLimitSettingsTests {
    @Test func photoCountCyclesThroughItsChoicesAndWraps() {
        var settings = Settings.default
        #expect(settings.maximumPhotos == 3)
        settings.cycle(.maximumPhotos, forward: true)
        #expect(settings.maximumPhotos == 5)
        settings.cycle(.maximumPhotos, forward: true)
        settings.cycle(.maximumPhotos, forward: true)
        #expect(settings.maximumPhotos == 1, "wraps after the largest choice")
        settings.cycle(.maximumPhotos, forward: false)
        #expect(settings.maximumPhotos == 10)
    }

    @Test func photoSizeCyclesInMebibytes() {
        var settings = Settings.default
        settings.cycle(.maximumPhotoSize, forward: true)
        #expect(settings.maximumPhotoBytes == 100 * 1024 * 1024)
        settings.cycle(.maximumPhotoSize, forward: false)
        settings.cycle(.maximumPhotoSize, forward: false)
        #expect(settings.maximumPhotoBytes == 25 * 1024 * 1024)
    }

    @Test func aNewCaptureUsesTheLimitsFromSettings() {
        var state = AppState()
        state.settings.maximumPhotos = 1
        state.settings.maximumPhotoBytes = 10 * 1024 * 1024
        _ = state.send(.tabChosen(.create))
        #expect(state.presentation.capture?.config.maximumPhotos == 1)
        #expect(state.presentation.capture?.config.maximumPhotoBytes == Int64(10 * 1024 * 1024))
    }
}
