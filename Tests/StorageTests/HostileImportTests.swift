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

/// Photo import from hostile places: traversal paths, symbolic links in the middle of a path,
/// and a disk that fills up — clear messages, nothing written outside the store, the database
/// unchanged. (Pipes, devices, sockets, a symbolic link as the last component, huge files and
/// files that change while copied are in StagingTests.)
@Suite("Hostile photo import")
struct HostileImportTests {
    static let megabyte: Int64 = 1_000_000

    /// Every file under `root`, relative, sorted: to prove nothing appeared outside the store.
    static func tree(_ root: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }

    @Test(arguments: StoreEngine.allCases) func aTraversalPathIsReadButNothingIsWrittenWhereItPoints(engine: StoreEngine) throws {
        // Given an image reached through ../ components, and a name that itself climbs out
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let outside = temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
        try TestImages.write(TestImages.png(width: 3, height: 2), named: "shot.png", in: outside)
        let outsideBefore = Self.tree(temp.url.appendingPathComponent("outside"))
        let session = try db.beginStaging()

        // When staging it by a ../ path, under a hostile original name
        let photo = try session.stage(
            fileAt: outside.path + "/deep/er/../../shot.png", originalName: "../../../etc/passwd.png",
            maxBytes: 2 * Self.megabyte)

        // Then the copy is inside the staging folder under a generated name, the climbing name is
        // only a label, and nothing changed outside the store
        #expect(!photo.storedName.contains("/") && !photo.storedName.contains(".."))
        #expect(listing(session.directory).contains(photo.storedName))
        #expect(photo.originalName == "../../../etc/passwd.png")
        #expect(Self.tree(outside) == outsideBefore)
        #expect(try db.storedCount() == 0)
    }

    @Test(arguments: StoreEngine.allCases) func aSymbolicLinkInTheMiddleOfThePathIsFollowedForReadingOnly(engine: StoreEngine) throws {
        // Given Pictures -> /elsewhere/photos (a common set-up: a folder on another disk)
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let real = temp.url.appendingPathComponent("elsewhere/photos")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try TestImages.write(TestImages.png(width: 5, height: 4), named: "cat.png", in: real)
        let link = temp.url.appendingPathComponent("Pictures")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let before = Self.tree(real)
        let session = try db.beginStaging()

        // When staging Pictures/cat.png
        let photo = try session.stage(fileAt: link.path + "/cat.png", originalName: "", maxBytes: 2 * Self.megabyte)

        // Then the file was copied in (a directory link is followed, as every program does), the
        // link's target is untouched, and the last component is still required to be a file
        #expect(photo.originalName == "cat.png" && photo.pixelWidth == 5)
        #expect(Self.tree(real) == before)
        let fileLink = real.appendingPathComponent("alias.png")
        try FileManager.default.createSymbolicLink(at: fileLink, withDestinationURL: real.appendingPathComponent("cat.png"))
        let error = #expect(throws: StorageError.self) {
            try session.stage(fileAt: link.path + "/alias.png", originalName: "", maxBytes: 2 * Self.megabyte)
        }
        #expect(error == .fileRefused("alias.png is a symbolic link; choose the file it points to."))
        #expect(session.photos.count == 1)
    }

    // MARK: - A full disk

    /// A tmpfs of `megabytes` mounted at `directory` for the test, unmounted after.
    final class SmallFileSystem {
        let url: URL
        init(at url: URL, megabytes: Int) throws {
            self.url = url
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            guard mount("tabshell-test", url.path, "tmpfs", 0, "size=\(megabytes)m,mode=0700") == 0 else {
                throw MountFailed(reason: String(cString: strerror(errno)))
            }
        }
        deinit { _ = umount2(url.path, Int32(MNT_DETACH)) }
        struct MountFailed: Error { var reason: String }
    }

    /// Fills the file system until a write fails; returns the filler's path.
    static func fill(_ directory: URL) throws -> String {
        let path = directory.appendingPathComponent("filler").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xAB, count: 64 * 1024)
        var written = 0
        while true {
            let count = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            written += count
        }
        // Byte-sized leftovers too, so that nothing at all is left.
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) == 1 {}
        #expect(written > 0)
        return path
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root (CI runs as root)"))
    func aFullDiskRefusesTheCopyAndTheDoneWithoutLosingAnything() throws {
        // Given the store on a 3 MiB file system, a capture with one photo staged
        let temp = try TemporaryDirectory()
        let disk = try SmallFileSystem(at: temp.url.appendingPathComponent("disk"), megabytes: 3)
        let sources = temp.url.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let first = try TestImages.write(TestImages.png(width: 64, height: 48, padding: 1_500_000), named: "first.png", in: sources)
        let second = try TestImages.write(TestImages.png(width: 64, height: 48, padding: 2_500_000), named: "second.png", in: sources)
        let databaseURL = disk.url.appendingPathComponent("tabshell.sqlite")
        let db = try AppDatabase.open(at: databaseURL)
        _ = try db.commitCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "96385074", symbology: .ean8)), now: Clock.now)
        let session = try db.beginStaging()
        let photo = try session.stage(fileAt: first, originalName: "", maxBytes: 5 * Self.megabyte)

        // When a second photo does not fit
        let copyError = #expect(throws: StorageError.self) {
            try session.stage(fileAt: second, originalName: "", maxBytes: 5 * Self.megabyte)
        }
        // Then the message says so, no partial file is left, and the first photo is intact
        #expect(copyError == .fileSystem("The disk is full: second.png could not be copied."))
        #expect(session.photos == [photo])
        #expect(listing(session.directory).filter { !$0.hasPrefix("draft") && $0 != "lock" } == [photo.storedName])

        // When the disk is filled to the last byte and Done is pressed
        let filler = try Self.fill(disk.url)
        let submission = CaptureSubmission(kind: .photos, note: "on a full disk", photos: [photo])
        let doneError = #expect(throws: StorageError.self) {
            try db.commitCapture(submission, staging: session, now: Clock.now)
        }
        // Then Done fails with a sentence, writes no row, and the photo is still staged
        let message = doneError.map { "\($0.message)" } ?? ""
        #expect(message.contains("full") || message.contains("no space"), "\(message)")
        #expect(try db.historyCount() == 1)
        #expect(listing(session.directory).contains(photo.storedName))

        // When space is freed, the same Done succeeds: nothing was lost
        _ = unlink(filler)
        let id = try db.commitCapture(submission, staging: session, now: Clock.now)
        #expect(try db.historyCount() == 2)
        #expect(try db.recordDetail(id: id)?.photos.count == 1)
        #expect(try db.integrityCheck() == ["ok"])
        print("full disk: copy refused with \"\(copyError?.message ?? "")\"; Done refused with \"\(message)\"; retried after freeing space: ok")
    }
}
