import CaptureMode
import Domain
import Foundation
import GRDB
import Scanning
import TabShell
import Testing

@testable import Storage

@Suite("Schema rules")
struct SchemaTests {
    static let invalidInserts: [(String, String, StatementArguments)] = [
        ("unknown request kind", "INSERT INTO request(title, kind, createdAt) VALUES (?, ?, ?)", ["T", "video", Clock.now]),
        ("blank title", "INSERT INTO request(title, kind, createdAt) VALUES (?, ?, ?)", ["   ", "note", Clock.now]),
        ("unknown status", "INSERT INTO request(title, kind, status, createdAt) VALUES (?, ?, ?, ?)", ["T", "note", "lost", Clock.now]),
        ("missing createdAt", "INSERT INTO request(title, kind) VALUES (?, ?)", ["T", "note"]),
        ("unknown capture kind", "INSERT INTO capture(kind, createdAt) VALUES (?, ?)", ["video", Clock.now]),
        ("code without symbology", "INSERT INTO capture(kind, barcode, createdAt) VALUES (?, ?, ?)", ["barcode", "96385074", Clock.now]),
        ("unknown symbology", "INSERT INTO capture(kind, barcode, symbology, createdAt) VALUES (?, ?, ?, ?)", ["barcode", "1", "morse", Clock.now]),
        ("missing request", "INSERT INTO capture(kind, note, requestId, createdAt) VALUES (?, ?, ?, ?)", ["note", "x", 999, Clock.now]),
        (
            "second settings row",
            "INSERT INTO settings (id, snapBackTarget, captureGating, tabBarPosition, colorEnabled, autoAdvanceMilliseconds, allowFreeTextCodes) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [2, "lastTab", false, "bottom", true, 800, false]
        ),
        (
            "auto-advance too long",
            "INSERT INTO settings (id, snapBackTarget, captureGating, tabBarPosition, colorEnabled, autoAdvanceMilliseconds, allowFreeTextCodes) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [1, "lastTab", false, "bottom", true, 60_001, false]
        ),
        (
            "unknown tab bar position",
            "INSERT INTO settings (id, snapBackTarget, captureGating, tabBarPosition, colorEnabled, autoAdvanceMilliseconds, allowFreeTextCodes) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [1, "lastTab", false, "left", true, 800, false]
        ),
    ]

    /// SQLite's rules; PostgreSQL's schema refuses the same rows (`MigrationTests`'
    /// `theSchemaRefusesWhatSQLitesRefuses`).
    @Test(arguments: invalidInserts)
    func theSchemaRefusesInvalidRows(name: String, sql: String, arguments: StatementArguments) throws {
        // Given a migrated database
        let temp = try TemporaryDirectory()
        _ = try openDatabase(temp)
        let queue = try rawQueue(temp.databaseURL)

        // When / Then
        let error = #expect(throws: DatabaseError.self, "\(name)") {
            try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT, "\(name)")
    }

    @Test(arguments: StoreEngine.allCases) func deletingARequestKeepsItsCapturesUnlinked(engine: StoreEngine) throws {
        // Given a capture answering a request
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Gone soon", kind: .note, now: Clock.minutesAgo(2))
        let captureID = try db.commit(CaptureSubmission(kind: .note, note: "answer", requestID: requestID), now: Clock.now)

        // When the request is deleted (by another program: tabshell has no command for it)
        try temp.backDoor(engine).execute("DELETE FROM request WHERE id = \(requestID)")

        // Then the capture remains, without a link
        let row = try #require(try db.storedRecord(captureID))
        #expect(row.requestID == nil && row.requestTitle == nil)
    }

    @Test func theDatabaseIsInWALMode() throws {
        let temp = try TemporaryDirectory()
        _ = try openDatabase(temp)
        let mode = try rawQueue(temp.databaseURL).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}

/// The scanner settings of v5 are stored and read back.
@Suite struct ScannerSettingsStorageTests {
    @Test(arguments: StoreEngine.allCases) func scannerLayoutStandInAndTabBarRoundTrip(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        var settings = Settings.default
        settings.scannerLayout = LayoutTranslation(scanner: .us, computer: .azerty)
        settings.separatorStandIn = "~"
        settings.tabBarMinimizesOnScroll = false
        try db.saveSettings(settings)
        let read = try temp.store(engine).settings()
        #expect(read.scannerLayout == settings.scannerLayout)
        #expect(read.separatorStandIn == "~")
        #expect(read.tabBarMinimizesOnScroll == false)
    }
}
