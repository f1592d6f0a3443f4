import CaptureMode
import Foundation
import Testing

@testable import Storage

#if canImport(Glibc)
import Glibc
#endif

/// A person's uploads under `tabshell serve`: names only, regular files only.
@Suite("Upload folders")
struct UploadFolderTests {
    /// A folder with `shelf.png` in it, and the secret and folder a hostile name would reach.
    final class Fixture {
        let temp: TemporaryDirectory
        let uploads: UploadFolder
        let secret: String

        init() throws {
            temp = try TemporaryDirectory()
            uploads = UploadFolder(path: temp.url.appendingPathComponent("people/ana/uploads").path)
            try uploads.prepare()
            _ = try TestImages.write(TestImages.png(width: 4, height: 3), named: "shelf.png", in: URL(fileURLWithPath: uploads.path))
            secret = try TestImages.write(TestImages.png(width: 2, height: 2), named: "secret.png", in: temp.url)
        }

        /// Sends `bytes` through a pipe to `add` (which may stop reading: SIGPIPE is ignored).
        func add(_ name: String, _ bytes: [UInt8], maxBytes: Int64 = 1 << 20) throws -> InspectedImage {
            signal(SIGPIPE, SIG_IGN)
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let writeEnd = fds[1]
            let writer = Thread {
                _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                close(writeEnd)
            }
            writer.start()
            defer { close(fds[0]) }
            return try uploads.add(name, from: fds[0], maxBytes: maxBytes)
        }
    }

    @Test func onlyRegularFilesAreListedAndAccepted() throws {
        let f = try Fixture()
        // A link to a file outside, a link to a folder, a folder, a dot file: none is an upload.
        #expect(symlink(f.secret, f.uploads.path + "/link.png") == 0)
        #expect(symlink("/etc", f.uploads.path + "/etc") == 0)
        #expect(mkdir(f.uploads.path + "/sub", 0o700) == 0)
        _ = try TestImages.write(TestImages.png(width: 2, height: 2), named: ".hidden.png", in: URL(fileURLWithPath: f.uploads.path))

        #expect(f.uploads.names() == ["shelf.png"])
        #expect(try f.uploads.resolve("shelf.png").get() == f.uploads.path + "/shelf.png")
        #expect(try f.uploads.resolve("'shelf.png'").get() == f.uploads.path + "/shelf.png", "a quoted paste of a name")
        for hostile in [
            "link.png", "etc", "sub", ".hidden.png", "../../secret.png", "/etc/passwd", "~/secret.png",
            "..", ".", "sub/../shelf.png", "file:///etc/passwd", "etc/passwd", "missing.png", "",
        ] {
            #expect(throws: StorageError.self, "\(hostile) must be refused") { try f.uploads.resolve(hostile).get() }
        }
    }

    @Test func aLinkedUploadFolderIsNotFollowed() throws {
        let f = try Fixture()
        let elsewhere = f.temp.url.appendingPathComponent("people/eve").path
        #expect(symlink(f.uploads.path, elsewhere) == 0)
        let linked = UploadFolder(path: elsewhere)
        #expect(linked.names().isEmpty)
        #expect(throws: StorageError.self) { try linked.resolve("shelf.png").get() }
    }

    @Test func addKeepsAnImageUnderItsNameAndRefusesTheRest() throws {
        let f = try Fixture()
        let image = try f.add("label.png", TestImages.png(width: 5, height: 6))
        #expect(image == InspectedImage(format: .png, pixelWidth: 5, pixelHeight: 6))
        #expect(f.uploads.names() == ["label.png", "shelf.png"])
        var info = stat()
        #expect(stat(f.uploads.path + "/label.png", &info) == 0 && info.st_mode & 0o777 == 0o600)

        #expect(throws: StorageError.self) { try f.add("text.png", Array("not an image".utf8)) }
        #expect(throws: StorageError.self) { try f.add("empty.png", []) }
        #expect(throws: StorageError.self) { try f.add("big.png", TestImages.png(width: 5, height: 6, padding: 4096), maxBytes: 1000) }
        #expect(throws: StorageError.self) { try f.add("../out.png", TestImages.png(width: 1, height: 1)) }
        #expect(throws: StorageError.self) { try f.add(".x.png", TestImages.png(width: 1, height: 1)) }
        #expect(f.uploads.names() == ["label.png", "shelf.png"], "nothing refused was kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.uploads.path).filter { $0.hasPrefix(".tmp") }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: f.temp.url.appendingPathComponent("people/ana/out.png").path))
    }

    /// Whatever `add` keeps, the capture's file field takes back by typing its name: no name it
    /// would trim (` lead`, `trail `) or that looks like another (`a` zero-width space `b`).
    @Test func aNameKeptIsOneTheCaptureTakesBack() throws {
        let f = try Fixture()
        for name in [" lead.png", "trail.png ", "\tlead.png", "a\u{200B}b.png", "a\u{200D}b.png", "a\u{2060}b.png", "\u{FEFF}ab.png", "a\u{00AD}b.png"] {
            #expect(throws: StorageError.self, "\(name.debugDescription) must be refused") { try f.add(name, TestImages.png(width: 1, height: 1)) }
        }
        #expect(f.uploads.names() == ["shelf.png"], "nothing refused was kept")
        for name in ["Shelf 4 (left).png", "寿司.png", "\u{2764}\u{FE0F}.png", "ab.png"] {
            _ = try f.add(name, TestImages.png(width: 1, height: 1))
            #expect(try f.uploads.resolve(name).get() == f.uploads.path + "/" + name, "\(name.debugDescription) taken back exactly")
        }
    }

    @Test func removeDeletesOnlyAnUpload() throws {
        let f = try Fixture()
        #expect(symlink(f.secret, f.uploads.path + "/link.png") == 0)
        #expect(throws: StorageError.self) { try f.uploads.remove("link.png") }
        #expect(FileManager.default.fileExists(atPath: f.secret), "the link's target is untouched")
        #expect(throws: StorageError.self) { try f.uploads.remove("../../secret.png") }
        try f.uploads.remove("shelf.png")
        #expect(f.uploads.names().isEmpty)
    }

    @Test func theDemoPhotosAreUploads() throws {
        let f = try Fixture()
        try f.uploads.addDemoPhotos()
        #expect(f.uploads.names() == ["coffee-beans-barcode.png", "coffee-beans-front.png", "shelf.png"])
        #expect(f.uploads.inspect("coffee-beans-front.png") == InspectedImage(format: .png, pixelWidth: 48, pixelHeight: 64))
    }
}
