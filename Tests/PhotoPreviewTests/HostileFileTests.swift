import Domain
import Foundation
import PhotoPreview
import TestSupport
import Testing

/// Broken and hostile files: each gives its sentence, nothing crashes, hangs or eats memory.
@Suite struct HostileFileTests {
    let folder: TemporaryFolder
    let box = CellSize(columns: 40, rows: 20)
    let mode = RenderMode.symbols(.blocks, .palette256)

    init() throws {
        folder = try TemporaryFolder()
    }

    func preview(_ file: URL, decoder: any PhotoDecoding = VipsPhotoDecoder()) -> Result<PreviewImage, PreviewError> {
        Result { () throws(PreviewError) in
            try PreviewPipeline(decoder: decoder).makePreview(of: file, box: box, mode: mode, cell: .typical)
        }
    }

    func photo(_ name: String, width: Int = 800, height: Int = 600) throws -> URL {
        try SampleImages.save(SampleImages.photoLike(width: width, height: height), width: width, height: height, as: name, in: folder.url)
    }

    @Test(arguments: ["cut.jpg", "cut.png", "cut.webp", "cut.gif"])
    func aTruncatedFileEndsEarly(name: String) throws {
        let whole = try photo(name)
        let file = try folder.write(HostileFiles.truncated(whole, keeping: 0.6), to: "short-" + name)
        let result = preview(file)
        #expect(result.failure?.sentence == "This photo is damaged: it ends early.", "\(String(describing: result.failure))")
    }

    @Test func aProgressiveJPEGCutShortEndsEarly() throws {
        let whole = try photo("progressive.jpg[interlace]")
        let file = try folder.write(HostileFiles.truncated(whole, keeping: 0.5), to: "short-progressive.jpg")
        #expect(preview(file).failure?.sentence == "This photo is damaged: it ends early.")
    }

    @Test func aPNGClaimingFiftyThousandSquareIsRefusedBeforeDecoding() throws {
        let file = try folder.write(HostileFiles.pngClaiming(width: 50_000, height: 50_000), to: "huge.png")
        let decoder = CountingDecoder()
        let result = preview(file, decoder: decoder)
        #expect(result.failure == .tooLarge(width: 50_000, height: 50_000))
        #expect(result.failure?.sentence == "Too large to preview: 50000 × 50000 pixels.")
        #expect(decoder.headers == 1)
        #expect(decoder.decodes == 0)
    }

    @Test func anAnimatedGIFWithThousandsOfFramesShowsItsFirstFrame() throws {
        let file = try folder.write(HostileFiles.animatedGIF(frames: 5000, width: 64, height: 32), to: "frames.gif")
        let header = try VipsPhotoDecoder().readHeader(of: file)
        // libnsgif stops counting at 4097; only the first frame is ever decoded.
        #expect(header.pages > 4000)
        let image = try preview(file).get()
        #expect(image.size == CellSize(columns: 40, rows: 10))
    }

    @Test func aJPEGWithAHugeICCProfileStillPreviews() throws {
        let jpeg = [UInt8](try Data(contentsOf: try photo("plain.jpg", width: 320, height: 240)))
        let hostile = HostileFiles.jpegWithICCProfile(jpeg, profileBytes: 16_000_000)
        let file = try folder.write(hostile, to: "icc.jpg")
        let header = try VipsPhotoDecoder().readHeader(of: file)
        // libjpeg keeps at most 100 APP2 segments of it: about 6.5 MB.
        #expect(header.iccProfileBytes > 6_000_000)
        let image = try preview(file).get()
        #expect(image.size == CellSize(columns: 40, rows: 15))
    }

    @Test func randomBytesAreNotAPhoto() throws {
        var random = SplitMix64(seed: 42)
        let file = try folder.write(random.bytes(64 * 1024), to: "noise.jpg")
        #expect(preview(file).failure?.sentence == "This file is not a photo tabshell can preview.")
    }

    @Test func anEmptyFileSaysSo() throws {
        let file = try folder.write([], to: "empty.png")
        #expect(preview(file).failure == .empty)
        #expect(preview(file).failure?.sentence == "This photo is empty: the file has no bytes.")
    }

    @Test func aMissingFileSaysSo() {
        #expect(preview(folder.file("gone.jpg")).failure == .missing)
    }

    @Test func aFolderIsNotAPhoto() throws {
        let inner = folder.file("folder.jpg")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        #expect(preview(inner).failure?.sentence == "The photo file cannot be read.")
    }

    /// ImageMagick, PDF and SVG loaders are blocked: an SVG is refused, not rendered.
    @Test func formatsOutsideTheAllowedLoadersAreRefused() throws {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>"#
        let file = try folder.write(Array(svg.utf8), to: "picture.svg")
        #expect(preview(file).failure?.sentence == "This file is not a photo tabshell can preview.")
    }

    @Test func aJPEGWhoseHeaderIsCutOffIsDamaged() throws {
        let whole = try photo("head.jpg")
        let file = try folder.write(HostileFiles.truncated(whole, keeping: 0.002), to: "head-only.jpg")
        let failure = preview(file).failure
        #expect(
            failure?.sentence == "This photo is damaged: it ends early." || failure?.sentence == "This photo is damaged: its data cannot be decoded.",
            "\(String(describing: failure))")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
