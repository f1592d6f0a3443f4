import CaptureMode
import Foundation
import Storage
import TabShell
import Testing

/// A damaged photo is refused when it is staged, whatever tells it (a truncated PNG
/// was reported "This photo is damaged: it ends early." by its preview and then saved by Done
/// without a word): cut short (told from the file itself, previews on or off) or undecodable.
@Suite struct DamagedPhotoStagingTests {
    static func gradient() -> Data {
        Data(DemoPNG.encode(width: 40, height: 30) { x, y in (UInt8(x * 6), UInt8(y * 8), 90) })
    }

    /// Stages `bytes` as `name` in a Photos capture and waits for the copy's outcome.
    static func stage(_ bytes: Data, named name: String, in app: RuntimeHarness) throws -> CaptureState {
        let url = app.folder.appendingPathComponent(name)
        try bytes.write(to: url)
        app.press(.character("2"), .character("p"))
        app.runtime.press(.paste(url.path))
        #expect(app.awaitBackgroundWork { app.state.presentation.capture?.copy == nil })
        return try #require(app.state.presentation.capture)
    }

    @Test(arguments: ["cut short", "undecodable"])
    func aDamagedPhotoIsNotAdded(damage: String) throws {
        let app = try RuntimeHarness()
        try app.start()
        var bytes = Self.gradient()
        if damage == "cut short" {
            bytes = bytes.prefix(bytes.count / 2)
        } else {
            // The image data scrambled, its end marker intact.
            for index in 60..<(bytes.count - 40) { bytes[index] ^= 0x5A }
        }
        let capture = try Self.stage(bytes, named: "broken.png", in: app)
        #expect(capture.photos.isEmpty, "not added")
        let message = try #require(capture.photoMessage)
        #expect(message.kind == .problem)
        #expect(message.text.hasPrefix("broken.png was not added. This photo is damaged: "), "\(message.text)")
        if damage == "cut short" { #expect(message.text.hasSuffix("it ends early.")) }
        let staged = try app.stagingFolders().flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: app.database.media.stagingDirectory.appendingPathComponent(folder).path)
        }
        #expect(!staged.contains { $0.hasSuffix(".png") }, "its copy is gone from staging: \(staged)")
        // Done takes the path still in the field again, and it is refused again: nothing saved.
        app.press(.control("d"))
        #expect(app.awaitBackgroundWork { app.state.presentation.capture?.copy == nil })
        let after = try #require(app.state.presentation.capture, "the capture stays open")
        #expect(after.photos.isEmpty)
        #expect(after.photoMessage?.text.hasPrefix("broken.png was not added.") == true)
    }

    @Test func aWholePhotoIsAdded() throws {
        let app = try RuntimeHarness()
        try app.start()
        let capture = try Self.stage(Self.gradient(), named: "good.png", in: app)
        #expect(capture.photos.map(\.originalName) == ["good.png"])
        #expect(capture.photoMessage == nil)
    }
}
