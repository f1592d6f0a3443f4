import CaptureMode
import Domain
import Foundation
import Testing

@testable import Storage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Staging photos")
struct StagingTests {
    static let megabyte: Int64 = 1_000_000

    @Test(arguments: StoreEngine.allCases) func stagesACopyUnderAGeneratedNameAndListsItInTheDraft(engine: StoreEngine) throws {
        // Given a PNG of 600 KB (a header and three copy chunks) and a new staging session
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let bytes = TestImages.png(width: 640, height: 480, padding: 600_000)
        let source = try TestImages.write(bytes, named: "holiday photo.png", in: temp.url)
        let session = try db.beginStaging()

        // When it is staged, recording the progress
        var progress: [(Int64, Int64)] = []
        let photo = try session.stage(fileAt: source, originalName: "holiday photo.png", maxBytes: 10 * Self.megabyte) {
            progress.append(($0, $1))
            return true
        }

        // Then the photo's facts come from its bytes, and its name is a UUID, not the user's
        #expect(photo.format == .png && photo.pixelWidth == 640 && photo.pixelHeight == 480)
        #expect(photo.byteSize == Int64(bytes.count))
        #expect(photo.originalName == "holiday photo.png")
        #expect(MediaStore.isStoredName(photo.storedName, format: .png))
        #expect(session.photos == [photo])
        // The copy is exact, private, and nothing temporary is left
        let staged = session.directory.appendingPathComponent(photo.storedName)
        #expect(try Data(contentsOf: staged) == Data(bytes))
        #expect(permissions(staged.path) == 0o600)
        #expect(listing(session.directory) == ["draft.json", "lock", photo.storedName].sorted())
        // Progress was reported after the 64 KiB header and each 256 KiB chunk, ending at the total
        #expect(progress.count == 4)
        #expect(progress.map(\.1).allSatisfy { $0 == Int64(bytes.count) })
        #expect(progress.last?.0 == Int64(bytes.count))
        #expect(progress.map(\.0) == progress.map(\.0).sorted())
        // And draft.json lists it
        guard case let .draft(draft) = StagingSession.readDraft(in: session.directory.path) else {
            Issue.record("draft.json is missing or unreadable")
            return
        }
        #expect(draft.photos == [photo])
        // The source is untouched
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == Data(bytes))
    }

    @Test(arguments: StoreEngine.allCases) func foldersAreOwnedByTheUserOnly(engine: StoreEngine) throws {
        let previousMask = umask(0o022)
        defer { umask(previousMask) }
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let session = try db.beginStaging()

        // Beside the SQLite file; for PostgreSQL, a folder per server and database in the data folder
        switch engine {
        case .sqlite:
            #expect(db.media.rootDirectory.path == temp.databaseURL.path + ".files")
        case .postgres:
            let name = db.media.rootDirectory.lastPathComponent
            #expect(db.media.rootDirectory.deletingLastPathComponent().path == temp.url.path)
            #expect(name.hasPrefix("postgres-") && name.hasSuffix(".files"), "\(name)")
            #expect(name.contains(try #require(temp.scratch?.location.database)), "\(name)")
        }
        #expect(permissions(db.media.rootDirectory.path) == 0o700)
        #expect(permissions(db.media.stagingDirectory.path) == 0o700)
        #expect(permissions(session.directory.path) == 0o700)
        #expect(permissions(session.directory.appendingPathComponent("lock").path) == 0o600)
        #expect(session.directory.deletingLastPathComponent().path == db.media.stagingDirectory.path)
        #expect(session.directory.lastPathComponent == session.id.uuidString.lowercased())
    }

    @Test(arguments: StoreEngine.allCases) func twoSessionsHaveTheirOwnFolders(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let first = try db.beginStaging()
        let second = try db.beginStaging()
        #expect(first.directory != second.directory)
        #expect(listing(db.media.stagingDirectory).count == 2)
    }

    // MARK: - Refusals

    enum Source: String, CaseIterable, CustomTestStringConvertible {
        case folder, fifo, characterDevice, symbolicLink, missing, text, tooBig, empty, socket

        var testDescription: String { rawValue }
    }

    /// Makes the source of `kind` in `directory` and returns its path and the expected sentence.
    private func makeSource(_ kind: Source, in directory: URL) throws -> (String, String) {
        let png = TestImages.png(width: 10, height: 10)
        switch kind {
        case .folder:
            let path = directory.appendingPathComponent("pics").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return (path, "pics is a folder, not a file.")
        case .fifo:
            let path = directory.appendingPathComponent("pipe.png").path
            #expect(mkfifo(path, 0o600) == 0)
            return (path, "pipe.png is a pipe, not a file.")
        case .characterDevice:
            return ("/dev/zero", "zero is a device, not a file.")
        case .symbolicLink:
            let target = try TestImages.write(png, named: "real.png", in: directory)
            let path = directory.appendingPathComponent("link.png").path
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            return (path, "link.png is a symbolic link; choose the file it points to.")
        case .missing:
            return (directory.appendingPathComponent("gone.png").path, "gone.png does not exist.")
        case .text:
            let path = try TestImages.write(Array("hello\n".utf8), named: "x.txt", in: directory)
            return (path, "x.txt is not a PNG, JPEG, GIF, WebP, BMP or HEIC image.")
        case .tooBig:
            let path = try TestImages.write(TestImages.png(width: 1, height: 1, padding: 2_500_000), named: "big.png", in: directory)
            return (path, "big.png is 2.5 MB; a photo can be at most 2 MB.")
        case .empty:
            let path = try TestImages.write([], named: "empty.jpg", in: directory)
            return (path, "empty.jpg is not a PNG, JPEG, GIF, WebP, BMP or HEIC image.")
        case .socket:
            let path = directory.appendingPathComponent("s.png").path
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            #expect(bound == 0)
            return (path, "s.png is not a regular file.")
        }
    }

    @Test(arguments: StoreEngine.allCases, Source.allCases)
    func refusesWhatIsNotARegularImageFileWithinTheLimit(engine: StoreEngine, kind: Source) throws {
        // Given a source that must be refused (for the FIFO: with no writer, so reading would block)
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let (path, sentence) = try makeSource(kind, in: temp.url)
        let name = (path as NSString).lastPathComponent
        let session = try db.beginStaging()

        // When
        let error = #expect(throws: StorageError.self) {
            try session.stage(fileAt: path, originalName: name, maxBytes: 2 * Self.megabyte)
        }

        // Then the sentence says why, and nothing was staged
        #expect(error == .fileRefused(sentence))
        #expect(session.photos.isEmpty)
        #expect(listing(session.directory) == ["lock"])
    }

    @Test(arguments: StoreEngine.allCases) func aFileAtTheLimitIsAccepted(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let bytes = TestImages.gif(width: 2, height: 2, padding: 1000)
        let path = try TestImages.write(bytes, named: "a.gif", in: temp.url)
        let session = try db.beginStaging()

        let photo = try session.stage(fileAt: path, originalName: "a.gif", maxBytes: Int64(bytes.count))

        #expect(photo.format == .gif)
        #expect(session.photos.count == 1)
    }

    @Test(arguments: StoreEngine.allCases) func cancellingFromProgressRemovesThePartialCopy(engine: StoreEngine) throws {
        // Given a 1 MB JPEG
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let path = try TestImages.write(TestImages.jpeg(width: 8, height: 8, padding: 1_000_000), named: "c.jpg", in: temp.url)
        let session = try db.beginStaging()

        // When the copy is cancelled after the second chunk
        var calls = 0
        #expect(throws: StorageError.cancelled) {
            try session.stage(fileAt: path, originalName: "c.jpg", maxBytes: 10 * Self.megabyte) { _, _ in
                calls += 1
                return calls < 2
            }
        }

        // Then nothing is left of it
        #expect(calls == 2)
        #expect(session.photos.isEmpty)
        #expect(listing(session.directory) == ["lock"])
    }

    @Test(arguments: StoreEngine.allCases) func aFileThatGrowsWhileItIsCopiedIsRefused(engine: StoreEngine) throws {
        // Given a 700 KB BMP
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let path = try TestImages.write(TestImages.bmp(width: 4, height: 4, padding: 700_000), named: "grow.bmp", in: temp.url)
        let session = try db.beginStaging()

        // When another program appends to it during the copy
        let error = #expect(throws: StorageError.self) {
            try session.stage(fileAt: path, originalName: "grow.bmp", maxBytes: 10 * Self.megabyte) { copied, _ in
                if copied <= Int64(StagingSession.copyChunkSize) {
                    let handle = FileHandle(forWritingAtPath: path)
                    handle?.seekToEndOfFile()
                    handle?.write(Data(repeating: 7, count: 600_000))
                    handle?.closeFile()
                }
                return true
            }
        }

        // Then
        #expect(error == .fileRefused("grow.bmp changed while it was copied; try again."))
        #expect(listing(session.directory) == ["lock"])
    }

    @Test(arguments: StoreEngine.allCases) func aFileThatShrinksWhileItIsCopiedIsRefused(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let path = try TestImages.write(TestImages.png(width: 4, height: 4, padding: 700_000), named: "shrink.png", in: temp.url)
        let session = try db.beginStaging()

        let error = #expect(throws: StorageError.self) {
            try session.stage(fileAt: path, originalName: "shrink.png", maxBytes: 10 * Self.megabyte) { _, _ in
                _ = truncate(path, 300_000)
                return true
            }
        }

        #expect(error == .fileRefused("shrink.png changed while it was copied; try again."))
        #expect(listing(session.directory) == ["lock"])
    }

    // MARK: - Removing, drafts, closing

    @Test(arguments: StoreEngine.allCases) func removingAPhotoDeletesItsFileAndUpdatesTheDraft(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let a = try TestImages.write(TestImages.png(width: 1, height: 2), named: "a.png", in: temp.url)
        let b = try TestImages.write(TestImages.webpLossless(width: 3, height: 4), named: "b.webp", in: temp.url)
        let session = try db.beginStaging()
        let first = try session.stage(fileAt: a, originalName: "a.png", maxBytes: Self.megabyte)
        let second = try session.stage(fileAt: b, originalName: "b.webp", maxBytes: Self.megabyte)

        try session.remove(first)

        #expect(session.photos == [second])
        #expect(listing(session.directory) == ["draft.json", "lock", second.storedName].sorted())
        guard case let .draft(draft) = StagingSession.readDraft(in: session.directory.path) else {
            Issue.record("no draft")
            return
        }
        #expect(draft.photos == [second])
        #expect(throws: StorageError.self) { try session.remove(first) }
    }

    @Test(arguments: StoreEngine.allCases) func theDraftKeepsWhatWasCapturedAndTheSessionsPhotos(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let a = try TestImages.write(TestImages.png(width: 1, height: 2), named: "a.png", in: temp.url)
        let session = try db.beginStaging()
        let photo = try session.stage(fileAt: a, originalName: "a.png", maxBytes: Self.megabyte)
        let code = Barcode(value: "4006381333931", symbology: .ean13)

        // When a draft is saved with a stale photo list
        try session.saveDraft(
            CaptureDraft(
                kind: .product, phase: "review", barcode: code, note: "寿司 🍣", requestID: 7, photos: [], updatedAt: Clock.now))

        // Then draft.json has the session's photos
        let expected = CaptureDraft(
            kind: .product, phase: "review", barcode: code, note: "寿司 🍣", requestID: 7, photos: [photo], updatedAt: Clock.now)
        #expect(session.draft == expected)
        guard case let .draft(saved) = StagingSession.readDraft(in: session.directory.path) else {
            Issue.record("no draft")
            return
        }
        #expect(saved == expected)
    }

    @Test(arguments: StoreEngine.allCases) func discardDeletesTheFolderAndEndsTheSession(engine: StoreEngine) throws {
        // Given a session with a staged photo and a draft
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let a = try TestImages.write(TestImages.png(width: 1, height: 2), named: "a.png", in: temp.url)
        let session = try db.beginStaging()
        _ = try session.stage(fileAt: a, originalName: "a.png", maxBytes: Self.megabyte)

        // When the capture is closed
        session.discard()

        // Then no staging folder is left, nothing was written, and the session is over
        #expect(!session.isOpen)
        #expect(listing(db.media.stagingDirectory).isEmpty)
        #expect(try db.storedCount() == 0)
        #expect(throws: StorageError.stagingClosed) {
            try session.stage(fileAt: a, originalName: "a.png", maxBytes: Self.megabyte)
        }
        session.discard()  // A second Close does nothing.
    }

    @Test(arguments: [(0, "0 bytes"), (900, "900 bytes"), (50_000, "0.1 MB"), (1_000_000, "1 MB"), (2_540_000, "2.5 MB"), (10_000_000, "10 MB")])
    func sizesReadAsMegabytes(bytes: Int64, text: String) {
        #expect(StagingSession.megabytes(bytes) == text)
    }
}
