import Foundation
import SQLiteStorage
import Storage
import Testing

@Suite("Default database location")
struct LocationTests {
    @Test func usesXDGDataHomeWhenSetAndAbsolute() {
        // Given XDG_DATA_HOME and HOME
        let environment = ["XDG_DATA_HOME": "/data/xdg", "HOME": "/home/ana"]
        // When / Then
        #expect(AppDatabase.defaultDirectory(environment: environment).path == "/data/xdg/tabshell")
        #expect(AppDatabase.defaultDatabaseURL(environment: environment).path == "/data/xdg/tabshell/tabshell.sqlite")
    }

    @Test(arguments: ["", "relative/dir"])
    func fallsBackToHomeWhenXDGIsEmptyOrRelative(xdg: String) {
        // Given an unusable XDG_DATA_HOME
        let environment = ["XDG_DATA_HOME": xdg, "HOME": "/home/ana"]
        // When
        let directory = AppDatabase.defaultDirectory(environment: environment)
        // Then
        #expect(directory.path == "/home/ana/.local/share/tabshell")
    }

    @Test func fallsBackToTheAccountHomeWithoutHOME() {
        // Given no variables at all
        let directory = AppDatabase.defaultDirectory(environment: [:])
        // Then
        let expected = FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/share/tabshell").path
        #expect(directory.path == expected)
    }
}
