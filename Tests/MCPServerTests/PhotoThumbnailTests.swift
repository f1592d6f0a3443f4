import Foundation
import Storage
import TestSupport
import Testing

@testable import MCPServer

/// The picture an agent is shown of a record's photo: through the previewer's checks, so a
/// photo the previewer refuses from its header is not decoded for an agent either.
@Suite struct PhotoThumbnailTests {
    @Test func aPhotoWhoseHeaderAsksForTooManyPixelsIsRefusedUndecoded() throws {
        let folder = try TemporaryFolder()
        // 2.5 gigapixels claimed, and no pixels there: decoded, it would be damaged, not too large.
        let file = try folder.write(HostileFiles.pngClaiming(width: 50_000, height: 50_000), to: "huge.png")
        let refusal = #expect(throws: PhotoThumbnail.Failure.self) { try PhotoThumbnail.jpeg(of: file) }
        #expect(refusal?.sentence == "Too large to preview: 50000 × 50000 pixels.")
    }

    @Test func aPhotoBecomesAJPEGNoLargerThanTheBounds() throws {
        let folder = try TemporaryFolder()
        let png = DemoPNG.encode(width: 1600, height: 1200) { x, y in (UInt8(x % 256), UInt8(y % 256), 90) }
        let file = try folder.write(png, to: "photo.png")
        let image = try PhotoThumbnail.jpeg(of: file)
        #expect(max(image.width, image.height) == PhotoThumbnail.longestSide)
        #expect(image.bytes.count <= PhotoThumbnail.maximumBytes)
        #expect(image.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test func aSmallPhotoIsShownAtItsOwnSizeNotEnlarged() throws {
        let folder = try TemporaryFolder()
        let png = DemoPNG.encode(width: 40, height: 30) { x, y in (UInt8(x * 6), UInt8(y * 8), 90) }
        let image = try PhotoThumbnail.jpeg(of: try folder.write(png, to: "small.png"))
        #expect((image.width, image.height) == (40, 30))
    }
}
