import Domain
import Foundation
import Storage
import TabShell
import Testing

@Suite("Settings")
struct SettingsTests {
    @Test(arguments: StoreEngine.allCases) func aNewDatabaseHasTheDefaultSettings(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        #expect(try db.settings() == Settings.default)
    }

    @Test(arguments: StoreEngine.allCases) func savedSettingsSurviveAReopenAndCanBeReplaced(engine: StoreEngine) throws {
        // Given saved settings that differ from the defaults in every field
        let temp = try TemporaryDirectory()
        var changed = Settings(
            snapBackTarget: .history, captureGating: true, tabBarPosition: .top,
            colorEnabled: false, autoAdvanceMilliseconds: 1500, allowFreeTextCodes: true)
        changed.maximumPhotos = 5
        changed.maximumPhotoBytes = 100 * 1024 * 1024
        changed.theme = .highContrast
        do {
            let db = try temp.store(engine)
            try db.saveSettings(changed)
        }

        // When the database is reopened, read, then saved again
        let db = try temp.store(engine)
        let reread = try db.settings()
        var again = changed
        again.autoAdvanceMilliseconds = 0
        again.theme = nil  // back to config.toml's
        try db.saveSettings(again)

        // Then
        #expect(reread == changed)
        #expect(try db.settings() == again)
    }

    @Test(arguments: StoreEngine.allCases) func refusesAnAutoAdvanceOutOfRange(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        var settings = Settings.default
        settings.autoAdvanceMilliseconds = 60_001

        #expect(throws: StorageError.invalidInput("Auto-advance must be between 0 and 60000 milliseconds.")) {
            try db.saveSettings(settings)
        }
        #expect(try db.settings() == Settings.default)
    }
}
