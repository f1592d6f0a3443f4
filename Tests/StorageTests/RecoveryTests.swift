import CaptureMode
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStorage
@testable import Storage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Start-up recovery")
struct RecoveryTests {
    static let megabyte: Int64 = 1_000_000
    static let code = Barcode(value: "96385074", symbology: .ean8)

    private func stagePNG(_ session: StagingSession, _ name: String, in temp: TemporaryDirectory) throws -> StagedPhoto {
        let path = try TestImages.write(TestImages.png(width: 3, height: 2), named: name, in: temp.url)
        return try session.stage(fileAt: path, originalName: name, maxBytes: Self.megabyte)
    }

    /// Sets the modification time of `url` to `seconds` before now.
    private func age(_ url: URL, by seconds: TimeInterval) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: url.path)
    }

    @Test(arguments: StoreEngine.allCases) func anAbandonedCaptureIsOfferedBackAndCanBeResumedAndCommitted(engine: StoreEngine) throws {
        // Given a capture with a code and a photo whose process went away (the lock is released)
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try db.beginStaging()
        let photo = try stagePNG(session, "shelf.png", in: temp)
        let draft = CaptureDraft(kind: .product, phase: "photos", barcode: Self.code, photos: [photo], updatedAt: Clock.now)
        try session.saveDraft(draft)
        session.close()

        // When the app starts again
        let report = try db.recover(now: Date())

        // Then the draft is offered, with its folder untouched
        #expect(report.drafts == [RecoveryReport.Draft(directory: session.directory, draft: draft)])
        #expect(report.removedStagingDirectories == 0 && report.quarantinedFiles == 0)
        #expect(report.summary == "Found 1 unfinished capture.")
        #expect(exists(session.directory.appendingPathComponent(photo.storedName).path))

        // And resuming it gives a session with its photos and draft, which commits like any other
        let resumed = try db.resumeDraft(report.drafts[0])
        #expect(resumed.id == session.id)
        #expect(resumed.photos == [photo])
        #expect(resumed.draft == draft)
        #expect(throws: StorageError.draftUnavailable) { try db.resumeDraft(report.drafts[0]) }
        #expect(try db.recover(now: Date()).drafts.isEmpty)  // A live session is not offered.
        let content = try Data(contentsOf: resumed.fileURL(of: photo))
        let id = try db.commitCapture(
            CaptureSubmission(kind: .product, barcode: Self.code, photos: resumed.photos), staging: resumed, now: Clock.now,
            capturedBy: nil)
        #expect(try db.storedPhotos(record: id).map(\.originalName) == [photo.originalName])
        #expect(try db.storedPhotos(record: id).map { try db.storedContent($0) } == [content])
        #expect(listing(db.media.stagingDirectory).isEmpty)
        #expect(throws: StorageError.draftUnavailable) { try db.discardDraft(report.drafts[0]) }
    }

    @Test(arguments: StoreEngine.allCases) func discardingADraftDeletesItsFolder(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try db.beginStaging()
        _ = try stagePNG(session, "a.png", in: temp)
        session.close()
        let report = try db.recover(now: Date())
        #expect(report.drafts.count == 1)
        #expect(report.drafts.first?.draft.kind == .photos)

        try db.discardDraft(report.drafts[0])

        #expect(listing(db.media.stagingDirectory).isEmpty)
        #expect(try db.recover(now: Date()) == RecoveryReport())
        #expect(try db.storedCount() == 0)
    }

    @Test(arguments: StoreEngine.allCases) func anEmptyAbandonedFolderIsRemovedWithItsPartialFiles(engine: StoreEngine) throws {
        // Given two abandoned sessions: one never saved anything, one left a partial copy and a
        // note of only spaces
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let empty = try db.beginStaging()
        empty.close()
        let blank = try db.beginStaging()
        try blank.saveDraft(CaptureDraft(kind: .note, phase: "note", note: "  \n ", updatedAt: Clock.now))
        try Data(repeating: 1, count: 100).write(to: blank.directory.appendingPathComponent(".tmp-\(UUID().uuidString.lowercased())"))
        blank.close()

        // When
        let report = try db.recover(now: Date())

        // Then both folders are gone
        #expect(report.drafts.isEmpty)
        #expect(report.removedStagingDirectories == 2)
        #expect(report.removedTempFiles == 1)
        #expect(report.summary == "Removed 2 abandoned staging folders and removed 1 partial file.")
        #expect(listing(db.media.stagingDirectory).isEmpty)
    }

    @Test(arguments: StoreEngine.allCases) func partialAndUnlistedFilesAreRemovedFromADraftThatIsKept(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try db.beginStaging()
        let photo = try stagePNG(session, "a.png", in: temp)
        let unlisted = UUID().uuidString.lowercased() + ".png"
        try Data(TestImages.png(width: 1, height: 1)).write(to: session.directory.appendingPathComponent(unlisted))
        try Data([1, 2]).write(to: session.directory.appendingPathComponent(".tmp-x"))
        session.close()

        let report = try db.recover(now: Date())

        #expect(report.drafts.map(\.draft.photos) == [[photo]])
        #expect(report.removedTempFiles == 2)
        #expect(listing(session.directory) == ["draft.json", "lock", photo.storedName].sorted())
    }

    @Test(arguments: StoreEngine.allCases) func aLiveSessionIsNeverTouched(engine: StoreEngine) throws {
        // Given a live capture (its lock held) with an empty draft and a partial copy
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let live = try db.beginStaging()
        let temporary = live.directory.appendingPathComponent(".tmp-in-progress")
        try Data([1]).write(to: temporary)
        let before = listing(live.directory)

        // When another session of the app starts (here: a second handle on the store)
        let other = try temp.store(engine)
        let report = try other.recover(graceSeconds: 0, now: Date())

        // Then nothing of the live capture was removed or offered
        #expect(report == RecoveryReport())
        #expect(listing(live.directory) == before)
        #expect(live.isOpen)
        _ = try stagePNG(live, "still-works.png", in: temp)
    }

    @Test(arguments: StoreEngine.allCases) func aFolderLeftByACrashAfterDoneCommittedIsRemovedNotOffered(engine: StoreEngine) throws {
        // Given an abandoned capture whose Done committed (its id is on a capture row) before the
        // process died, so its folder was never deleted
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try db.beginStaging()
        try session.saveDraft(CaptureDraft(kind: .barcode, phase: "review", barcode: Self.code, updatedAt: Clock.now))
        session.close()
        let stagingID = session.id.uuidString.lowercased()
        try temp.backDoor(engine).execute(
            sqlite: """
                INSERT INTO capture(kind, barcode, symbology, createdAt, stagingId)
                VALUES ('barcode', '\(Self.code.value)', 'ean8', '2025-06-15 10:00:00.000', '\(stagingID)')
                """,
            postgres: """
                INSERT INTO capture(kind, barcode, symbology, created_at, staging_id)
                VALUES ('barcode', '\(Self.code.value)', 'ean8', now(), '\(stagingID)')
                """)

        // When
        let report = try db.recover(now: Date())

        // Then it is removed, not offered (which would duplicate the record)
        #expect(report.drafts.isEmpty)
        #expect(report.removedStagingDirectories == 1)
        #expect(listing(db.media.stagingDirectory).isEmpty)
        #expect(try db.storedCount() == 1)
    }

    /// SQLite's Done moves photos before it commits; PostgreSQL's never moves one (it reads them
    /// from staging), so this is SQLite's alone.
    @Test func photosAnInterruptedDoneMovedAreReturnedToTheirDraft() throws {
        // Given a capture whose Done moved one photo into media and then died before committing
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let session = try db.beginStaging()
        let first = try stagePNG(session, "a.png", in: temp)
        let second = try stagePNG(session, "b.png", in: temp)
        try session.saveDraft(CaptureDraft(kind: .photos, phase: "review", updatedAt: Clock.now))
        try FileManager.default.createDirectory(at: db.media.mediaDirectory, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: session.directory.appendingPathComponent(first.storedName), to: db.media.url(forStoredName: first.storedName))
        session.close()

        // When the app starts, even with no grace period
        let report = try db.recover(graceSeconds: 0, now: Date())

        // Then the photo is back in the draft, not quarantined
        #expect(report.restoredPhotos == 1)
        #expect(report.quarantinedFiles == 0)
        #expect(report.drafts.map(\.draft.photos) == [[first, second]])
        #expect(listing(db.media.mediaDirectory).isEmpty)
        #expect(exists(session.directory.appendingPathComponent(first.storedName).path))
        #expect(report.summary == "Found 1 unfinished capture and put back 1 photo of an interrupted Done.")
    }

    /// SQLite's media folder holds the committed photos; PostgreSQL's is a cache (next test).
    @Test func unreferencedMediaOlderThanTheGracePeriodIsQuarantinedAndTheRestKept() throws {
        // Given a committed photo, and two media files without a row: one old, one new
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let session = try db.beginStaging()
        _ = try stagePNG(session, "kept.png", in: temp)
        let id = try db.commitCapture(CaptureSubmission(kind: .photos, photos: session.photos), staging: session, now: Clock.now)
        let committed = try #require(try db.photos(forRecord: id).first)
        try age(db.media.url(forStoredName: committed.storedName), by: 7200)
        let old = db.media.url(forStoredName: UUID().uuidString.lowercased() + ".jpg")
        let new = db.media.url(forStoredName: UUID().uuidString.lowercased() + ".gif")
        try Data(TestImages.jpeg(width: 1, height: 1)).write(to: old)
        try Data(TestImages.gif(width: 1, height: 1)).write(to: new)
        try age(old, by: 7200)

        // When recovery runs with a one-hour grace period
        let now = Date()
        let report = try db.recover(graceSeconds: 3600, now: now)

        // Then only the old orphan is moved, into a timestamped quarantine folder
        #expect(report.quarantinedFiles == 1)
        let quarantine = try #require(report.quarantineDirectory)
        #expect(quarantine.deletingLastPathComponent().path == db.media.quarantineDirectory.path)
        #expect(quarantine.lastPathComponent == AppDatabase.quarantineName(now))
        #expect(listing(quarantine) == [old.lastPathComponent])
        #expect(permissions(quarantine.path) == 0o700)
        #expect(listing(db.media.mediaDirectory) == [committed.storedName, new.lastPathComponent].sorted())
        #expect(report.summary == "Moved 1 unreferenced file to \(quarantine.path).")

        // And with no grace period the new orphan goes too, the committed photo never
        let second = try db.recover(graceSeconds: 0, now: Date())
        #expect(second.quarantinedFiles == 1)
        #expect(listing(db.media.mediaDirectory) == [committed.storedName])
    }

    @Test func aHostsPhotoCacheIsNeitherQuarantinedNorReturnedToADraft() throws {
        // Given a photo committed to PostgreSQL (kept in this host's cache), an old file in the
        // cache, and a staged file an old SQLite Done would have moved
        let temp = try TemporaryDirectory()
        let db = try temp.store(.postgres)
        let session = try db.beginStaging()
        _ = try stagePNG(session, "kept.png", in: temp)
        let id = try db.commitCapture(
            CaptureSubmission(kind: .photos, photos: session.photos), staging: session, now: Clock.now, capturedBy: nil)
        let committed = try #require(try db.storedPhotos(record: id).first)
        try age(db.photoFile(storedName: committed.storedName), by: 7200)
        let draft = try db.beginStaging()
        let staged = try stagePNG(draft, "b.png", in: temp)
        draft.close()
        let before = listing(db.media.mediaDirectory)

        // When recovery runs with no grace period
        let report = try db.recover(graceSeconds: 0, now: Date())

        // Then the cache is as it was: only a cache, trimmed by size, never swept
        #expect(report.quarantinedFiles == 0 && report.restoredPhotos == 0)
        #expect(listing(db.media.mediaDirectory) == before)
        #expect(report.drafts.map(\.draft.photos) == [[staged]])
    }

    @Test(arguments: StoreEngine.allCases) func anUnreadableDraftIsQuarantinedNotDeleted(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try db.beginStaging()
        let photo = try stagePNG(session, "a.png", in: temp)
        try Data("{ not json".utf8).write(to: session.directory.appendingPathComponent("draft.json"))
        session.close()

        let report = try db.recover(now: Date())

        #expect(report.drafts.isEmpty)
        #expect(report.quarantinedFiles == 2)
        let moved = try #require(report.quarantineDirectory).appendingPathComponent("staging-" + session.id.uuidString.lowercased())
        #expect(listing(moved) == ["draft.json", "lock", photo.storedName].sorted())
        #expect(listing(db.media.stagingDirectory).isEmpty)
        #expect(report.problems.count == 1)
    }

    @Test(arguments: StoreEngine.allCases) func foldersThatTabshellDidNotNameAreLeftAlone(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let staging = try db.beginStaging().directory.deletingLastPathComponent()
        let foreign = staging.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)

        _ = try db.recover(graceSeconds: 0, now: Date())

        #expect(exists(foreign.path))
    }

    @Test(arguments: StoreEngine.allCases) func nothingToDoReadsAsAnEmptySummary(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let report = try db.recover(now: Date())
        #expect(report == RecoveryReport())
        #expect(report.summary == "")
        #expect(!exists(db.media.rootDirectory.path))
    }

    @Test func theSummaryListsEverythingInOneSentence() {
        var report = RecoveryReport()
        report.drafts = [
            RecoveryReport.Draft(directory: URL(fileURLWithPath: "/s/a"), draft: CaptureDraft(kind: .note, phase: "note", note: "x", updatedAt: Clock.now)),
            RecoveryReport.Draft(directory: URL(fileURLWithPath: "/s/b"), draft: CaptureDraft(kind: .note, phase: "note", note: "y", updatedAt: Clock.now)),
        ]
        report.removedStagingDirectories = 1
        report.removedTempFiles = 3
        report.quarantinedFiles = 2
        report.quarantineDirectory = URL(fileURLWithPath: "/q/20250615T103000Z")
        #expect(
            report.summary
                == "Found 2 unfinished captures, removed 1 abandoned staging folder, removed 3 partial files and moved 2 unreferenced files to /q/20250615T103000Z.")
    }

    @Test func quarantineFoldersAreNamedByUTCTime() {
        #expect(AppDatabase.quarantineName(Date(timeIntervalSince1970: 1_750_000_000)) == "20250615T150640Z")
    }
}
