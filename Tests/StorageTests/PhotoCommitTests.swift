import CaptureMode
import Domain
import Foundation
import GRDB
import Testing

@testable import SQLiteStorage
@testable import Storage

@Suite("Done with photos, and deleting records")
struct PhotoCommitTests {
    static let megabyte: Int64 = 1_000_000
    static let code = Barcode(value: "4006381333931", symbology: .ean13)

    /// A session with one staged photo per image in `images` (name, bytes).
    private func stage(_ images: [(String, [UInt8])], in temp: TemporaryDirectory, db: any RecordStore) throws -> StagingSession {
        let session = try db.beginStaging()
        for (name, bytes) in images {
            let path = try TestImages.write(bytes, named: name, in: temp.url)
            _ = try session.stage(fileAt: path, originalName: name, maxBytes: 10 * Self.megabyte)
        }
        return session
    }

    private static let threeImages: [(String, [UInt8])] = [
        ("front.jpg", TestImages.jpeg(width: 1200, height: 900, padding: 300_000)),
        ("back.png", TestImages.png(width: 800, height: 600)),
        ("label.heic", TestImages.heic(sizes: [(4032, 3024)])),
    ]

    @Test(arguments: StoreEngine.allCases)
    func doneStoresThePhotosAndWritesEveryRowInOneTransaction(engine: StoreEngine) throws {
        // Given a request and a capture with three staged photos
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Shoot the box", kind: .product, now: Clock.minutesAgo(9))
        let session = try stage(Self.threeImages, in: temp, db: db)
        let staged = session.photos
        let contents = try staged.map { try Data(contentsOf: session.directory.appendingPathComponent($0.storedName)) }

        // When Done commits them
        let submission = CaptureSubmission(kind: .product, barcode: Self.code, requestID: requestID, photos: staged)
        let id = try db.commitCapture(submission, staging: session, now: Clock.now, capturedBy: nil)

        // Then the record, its three photos in order and the request's status are stored
        let back = try temp.backDoor(engine)
        #expect(try db.storedCount() == 1)
        #expect(try back.count(.photos) == 3)
        #expect(try db.inbox().pendingCount == 0)
        let photos = try db.storedPhotos(record: id)
        #expect(photos.map(\.position) == [0, 1, 2])
        #expect(photos.map(\.originalName) == ["front.jpg", "back.png", "label.heic"])
        #expect(photos.map(\.format) == [.jpeg, .png, .heic])
        #expect(photos.map(\.pixelWidth) == [1200, 800, 4032])
        #expect(photos.map(\.byteSize) == contents.map { Int64($0.count) })
        // The same bytes come back, from a private file; the staging folder is gone
        #expect(try photos.map { try db.storedContent($0) } == contents)
        #expect(try photos.allSatisfy { permissions(try db.photoFile(storedName: $0.storedName).path) == 0o600 })
        #expect(permissions(db.media.mediaDirectory.path) == 0o700)
        #expect(listing(db.media.stagingDirectory).isEmpty)
        #expect(!session.isOpen)
        switch engine {
        case .sqlite:
            // SQLite's photos are the staged files, moved into the media folder under their names
            #expect(photos.map(\.storedName) == staged.map(\.storedName))
            #expect(listing(db.media.mediaDirectory) == staged.map(\.storedName).sorted())
        case .postgres:
            // PostgreSQL's are named by their content; the media folder is this host's cache of them
            #expect(photos.allSatisfy { PhotoCache.hash(ofStoredName: $0.storedName) != nil })
            #expect(listing(db.media.mediaDirectory) == photos.map(\.storedName).sorted())
        }
        // And the capture remembers its session (recovery knows the folder was committed)
        #expect(try db.isStagingCommitted(session.stagingID))
    }

    @Test(arguments: StoreEngine.allCases) func identicalPhotosAreStoredOnceAndShownByEach(engine: StoreEngine) throws {
        // Given the same image staged for two captures, and under two names in one
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let image = Self.threeImages[1]
        let first = try stage([image, ("copy.png", image.1)], in: temp, db: db)
        let firstID = try db.commitCapture(
            CaptureSubmission(kind: .photos, photos: first.photos), staging: first, now: Clock.now, capturedBy: nil)
        let second = try stage([image], in: temp, db: db)
        let secondID = try db.commitCapture(
            CaptureSubmission(kind: .photos, photos: second.photos), staging: second, now: Clock.now, capturedBy: nil)

        // Then every record shows its photos with their own names and the same bytes
        #expect(try db.storedPhotos(record: firstID).map(\.originalName) == ["back.png", "copy.png"])
        #expect(try db.storedPhotos(record: firstID).map { try db.storedContent($0) } == [Data(image.1), Data(image.1)])
        #expect(try db.storedPhotos(record: secondID).map { try db.storedContent($0) } == [Data(image.1)])

        // And deleting one record keeps the photo of the other
        #expect(try db.deleteRecord(id: firstID))
        #expect(try db.storedPhotos(record: secondID).map { try db.storedContent($0) } == [Data(image.1)])
    }

    @Test(arguments: StoreEngine.allCases) func theSubmissionChoosesWhichPhotosAndInWhatOrder(engine: StoreEngine) throws {
        // Given three staged photos
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try stage(Self.threeImages, in: temp, db: db)
        let staged = session.photos

        // When Done submits the last and the first, with a forged size
        var forged = staged[0]
        forged.byteSize = 1
        let id = try db.commitCapture(
            CaptureSubmission(kind: .photos, photos: [staged[2], forged]), staging: session, now: Clock.now, capturedBy: nil)

        // Then those two are stored in that order with their staged facts; the third is gone
        let photos = try db.storedPhotos(record: id)
        #expect(photos.map(\.originalName) == ["label.heic", "front.jpg"])
        #expect(photos[1].byteSize == staged[0].byteSize)
        #expect(try photos.map { try db.storedContent($0) } == [Data(Self.threeImages[2].1), Data(Self.threeImages[0].1)])
        #expect(listing(db.media.mediaDirectory).count == 2)
        #expect(listing(db.media.stagingDirectory).isEmpty)
    }

    @Test(arguments: StoreEngine.allCases) func aCaptureWithoutPhotosCanUseAStagingSession(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try db.beginStaging()
        try session.saveDraft(CaptureDraft(kind: .barcode, phase: "review", barcode: Self.code, updatedAt: Clock.now))

        let id = try db.commitCapture(
            CaptureSubmission(kind: .barcode, barcode: Self.code), staging: session, now: Clock.now, capturedBy: nil)

        #expect(try db.storedRecord(id)?.barcode == Self.code)
        #expect(try db.storedPhotos(record: id).isEmpty)
        #expect(listing(db.media.stagingDirectory).isEmpty)
        #expect(!exists(db.media.mediaDirectory.path))
    }

    @Test(arguments: StoreEngine.allCases) func aFailedDoneWritesNoRowAndPutsThePhotosBack(engine: StoreEngine) throws {
        // Given staged photos answering a request that another session deletes meanwhile
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Soon gone", kind: .photos, now: Clock.minutesAgo(3))
        let session = try stage(Array(Self.threeImages.prefix(2)), in: temp, db: db)
        let back = try temp.backDoor(engine)
        try back.execute("DELETE FROM request WHERE id = \(requestID)")

        // When Done fails
        let submission = CaptureSubmission(kind: .photos, requestID: requestID, photos: session.photos)
        #expect(throws: StorageError.requestNotFound(id: requestID)) {
            try db.commitCapture(submission, staging: session, now: Clock.now, capturedBy: nil)
        }

        // Then no row was written, the photos are back in staging and the capture is still open
        #expect(try db.storedCount() == 0)
        #expect(try back.count(.photos) == 0)
        #expect(listing(db.media.mediaDirectory).isEmpty)
        #expect(session.isOpen)
        #expect(listing(session.directory) == (session.photos.map(\.storedName) + ["draft.json", "lock"]).sorted())

        // And Close afterwards leaves nothing behind, which recovery confirms
        session.discard()
        let report = try db.recover(graceSeconds: 0, now: Date())
        #expect(report == RecoveryReport())
        #expect(listing(db.media.stagingDirectory).isEmpty)
    }

    @Test(arguments: StoreEngine.allCases) func aPhotoRowTheSchemaRefusesRollsBackTheWholeDone(engine: StoreEngine) throws {
        // Given a pending request, staged photos, and a trigger refusing the second photo row
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requestID = try db.add(title: "Both", kind: .photos, now: Clock.minutesAgo(3))
        let session = try stage(Array(Self.threeImages.prefix(2)), in: temp, db: db)
        let back = try temp.backDoor(engine)
        try back.refuseInserts(into: .photos, when: "NEW.position = 1", message: "photo refused")

        // When
        let submission = CaptureSubmission(kind: .photos, requestID: requestID, photos: session.photos)
        let error = #expect(throws: StorageError.self) {
            try db.commitCapture(submission, staging: session, now: Clock.now, capturedBy: nil)
        }

        // Then the capture, the first photo row and the request update were all rolled back
        #expect(error?.message.contains("photo refused") == true)
        #expect(try db.storedCount() == 0)
        #expect(try back.count(.photos) == 0)
        #expect(try db.inbox().pendingCount == 1)
        #expect(listing(db.media.mediaDirectory).isEmpty)
        #expect(session.photos.allSatisfy { exists(session.directory.appendingPathComponent($0.storedName).path) })

        // And a retry once the trigger is gone succeeds
        try back.allowInserts(into: .photos)
        let id = try db.commitCapture(submission, staging: session, now: Clock.now, capturedBy: nil)
        #expect(try db.storedPhotos(record: id).count == 2)
        #expect(try db.inbox().pendingCount == 0)
    }

    /// SQLite's Done moves the files before its transaction commits (PostgreSQL's reads them
    /// from staging and never moves one before the commit).
    @Test func doneAcceptsAPhotoAnEarlierInterruptedDoneAlreadyMoved() throws {
        // Given a staged photo that an interrupted Done had already moved into media
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let session = try stage(Array(Self.threeImages.prefix(2)), in: temp, db: db)
        let moved = session.photos[0].storedName
        try FileManager.default.createDirectory(at: db.media.mediaDirectory, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: session.directory.appendingPathComponent(moved), to: db.media.url(forStoredName: moved))

        // When Done runs again
        let id = try db.commitCapture(CaptureSubmission(kind: .photos, photos: session.photos), staging: session, now: Clock.now)

        // Then both photos are committed
        #expect(try db.photos(forRecord: id).map { exists(db.media.url(forStoredName: $0.storedName).path) } == [true, true])
    }

    @Test(arguments: StoreEngine.allCases) func refusesPhotosThatAreNotStagedInTheSession(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try stage(Array(Self.threeImages.prefix(1)), in: temp, db: db)
        let stranger = StagedPhoto(
            storedName: "../../etc/passwd", originalName: "passwd", format: .png, pixelWidth: 1, pixelHeight: 1, byteSize: 1)

        #expect(throws: StorageError.invalidInput("passwd is not staged in this capture.")) {
            try db.commitCapture(CaptureSubmission(kind: .photos, photos: [stranger]), staging: session, now: Clock.now, capturedBy: nil)
        }
        #expect(throws: StorageError.invalidInput("Photos can only be committed with the capture that staged them.")) {
            try db.commit(CaptureSubmission(kind: .photos, photos: session.photos), now: Clock.now)
        }
        #expect(throws: StorageError.invalidInput("front.jpg is in the capture twice.")) {
            try db.commitCapture(
                CaptureSubmission(kind: .photos, photos: session.photos + session.photos), staging: session, now: Clock.now,
                capturedBy: nil)
        }
        #expect(try db.storedCount() == 0)
        #expect(session.isOpen)
    }

    @Test(arguments: StoreEngine.allCases) func aSessionCommitsOnlyOnce(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try stage(Array(Self.threeImages.prefix(1)), in: temp, db: db)
        let submission = CaptureSubmission(kind: .photos, photos: session.photos)
        _ = try db.commitCapture(submission, staging: session, now: Clock.now, capturedBy: nil)

        #expect(throws: StorageError.stagingClosed) {
            try db.commitCapture(submission, staging: session, now: Clock.now, capturedBy: nil)
        }
        #expect(try db.storedCount() == 1)
    }

    // MARK: - Deleting

    @Test(arguments: StoreEngine.allCases) func deletingARecordRemovesItsRowsThenItsFiles(engine: StoreEngine) throws {
        // Given two records with photos
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let first = try stage(Array(Self.threeImages.prefix(2)), in: temp, db: db)
        let firstID = try db.commitCapture(
            CaptureSubmission(kind: .photos, photos: first.photos), staging: first, now: Clock.now, capturedBy: nil)
        let second = try stage(Array(Self.threeImages.suffix(1)), in: temp, db: db)
        let secondID = try db.commitCapture(
            CaptureSubmission(kind: .photos, photos: second.photos), staging: second, now: Clock.now, capturedBy: nil)
        let firstPhotos = try db.storedPhotos(record: firstID)
        let firstFiles = try firstPhotos.map { try db.photoFile(storedName: $0.storedName) }
        let secondPhotos = try db.storedPhotos(record: secondID)

        // When the first is deleted
        #expect(try db.deleteRecord(id: firstID))

        // Then its rows and files are gone (on PostgreSQL: the photos and this host's copies),
        // the other record is intact
        #expect(try db.storedRecord(firstID) == nil)
        #expect(try db.storedPhotos(record: firstID).isEmpty)
        #expect(firstFiles.allSatisfy { !exists($0.path) })
        #expect(try temp.backDoor(engine).count(.photos) == 1)
        for photo in firstPhotos {
            #expect(throws: StorageError.self) { try db.photoFile(storedName: photo.storedName) }
        }
        #expect(try secondPhotos.map { try db.storedContent($0) } == [Data(Self.threeImages[2].1)])
        #expect(listing(db.media.mediaDirectory) == secondPhotos.map(\.storedName))
        // And an unknown id is reported, not an error
        #expect(try db.deleteRecord(id: firstID) == false)
    }

    @Test(arguments: StoreEngine.allCases) func clearAllDeletesEveryRecordAndFileAndKeepsTheInbox(engine: StoreEngine) throws {
        // Given three records, two with photos, and a request
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.add(title: "Keep me", kind: .note, now: Clock.minutesAgo(5))
        for image in Self.threeImages.prefix(2) {
            let session = try stage([image], in: temp, db: db)
            _ = try db.commitCapture(
                CaptureSubmission(kind: .photos, photos: session.photos), staging: session, now: Clock.now, capturedBy: nil)
        }
        _ = try db.commit(CaptureSubmission(kind: .note, note: "plain"), now: Clock.now)

        // When
        let count = try db.deleteAllRecords()

        // Then
        #expect(count == 3)
        #expect(try db.storedCount() == 0)
        #expect(try temp.backDoor(engine).count(.photos) == 0)
        #expect(listing(db.media.mediaDirectory).isEmpty)
        #expect(try db.inbox().requests.map(\.title) == ["Keep me"])
        #expect(try db.deleteAllRecords() == 0)
    }

    /// SQLite's schema rules for photo rows; PostgreSQL's are `MigrationTests`'
    /// `theSchemaRefusesWhatSQLitesRefuses` and `aPhotoIsKeyedByTheHashOfItsBytes`.
    @Test func theSchemaRefusesInvalidPhotoRows() throws {
        let temp = try TemporaryDirectory()
        let db = try openDatabase(temp)
        let id = try db.commitCapture(CaptureSubmission(kind: .note, note: "x"), now: Clock.now)
        let queue = try rawQueue(temp.databaseURL)
        let insert = "INSERT INTO photo(captureId, position, storedName, originalName, format, pixelWidth, pixelHeight, byteSize) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        try queue.write { db in
            try db.execute(sql: insert, arguments: [id, 0, "a.png", "a.png", "png", 1, 1, 1])
        }
        let invalid: [(String, StatementArguments)] = [
            ("unknown capture", [999, 1, "b.png", "b", "png", 1, 1, 1]),
            ("same stored name", [id, 1, "a.png", "b", "png", 1, 1, 1]),
            ("same position", [id, 0, "b.png", "b", "png", 1, 1, 1]),
            ("unknown format", [id, 1, "b.tif", "b", "tiff", 1, 1, 1]),
            ("negative width", [id, 1, "b.png", "b", "png", -1, 1, 1]),
            ("negative size", [id, 1, "b.png", "b", "png", 1, 1, -1]),
            ("a path as stored name", [id, 1, "../b.png", "b", "png", 1, 1, 1]),
            ("a hidden stored name", [id, 1, ".b.png", "b", "png", 1, 1, 1]),
        ]
        for (name, arguments) in invalid {
            let error = #expect(throws: DatabaseError.self, "\(name)") {
                try queue.write { db in try db.execute(sql: insert, arguments: arguments) }
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT, "\(name)")
        }
        // Deleting the capture cascades to its photos
        _ = try db.deleteRecord(id: id)
        #expect(try temp.backDoor(.sqlite).count(.photos) == 0)
    }
}
