import Foundation
import PhotoPreview
import Testing

/// The header is checked before pixels are decoded; decoding has a deadline.
@Suite struct PreviewLimitsTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test func aPhotoOverThePixelLimitIsRefusedBeforeDecoding() throws {
        let file = try SampleImages.save(SampleImages.photoLike(width: 200, height: 100), width: 200, height: 100, as: "photo.jpg", in: folder.url)
        let decoder = CountingDecoder()
        let limits = PreviewLimits(maxPixels: 19_999, maxDecodeBytes: 1 << 30)
        let pipeline = PreviewPipeline(decoder: decoder, limits: limits)
        #expect(throws: PreviewError.tooLarge(width: 200, height: 100)) {
            try pipeline.makePreview(of: file, box: CellSize(columns: 20, rows: 10), mode: .symbols(.blocks, .truecolor), cell: .typical)
        }
        #expect(decoder.headers == 1)
        #expect(decoder.decodes == 0)
    }

    /// 96 megapixels passes the pixel limit, but a GIF decoder holds the whole RGBA canvas.
    @Test func aHugeGIFCanvasIsRefusedForItsMemory() throws {
        let file = try folder.write(HostileFiles.animatedGIF(frames: 1, width: 12_000, height: 8_000, fullFrames: true), to: "canvas.gif")
        let decoder = CountingDecoder()
        #expect(throws: PreviewError.tooLarge(width: 12_000, height: 8_000)) {
            try PreviewPipeline(decoder: decoder).makePreview(of: file, box: CellSize(columns: 20, rows: 10), mode: .symbols(.blocks, .truecolor), cell: .typical)
        }
        #expect(decoder.decodes == 0)
    }

    @Test func interlacedImagesCountTheirWholeSize() {
        var header = PhotoHeader(
            storedSize: PixelSize(width: 10_000, height: 8_000), bands: 4, bytesPerSample: 1, pages: 1,
            interlaced: false, orientationSwaps: false, iccProfileBytes: 0, loader: "pngload"
        )
        #expect(PreviewLimits.estimatedDecodeBytes(header) == 10_000 * 16 * 4)
        #expect((try? PreviewLimits.standard.check(header)) != nil)
        header.interlaced = true
        #expect(PreviewLimits.estimatedDecodeBytes(header) == 320_000_000)
        #expect(throws: PreviewError.tooLarge(width: 10_000, height: 8_000)) { try PreviewLimits.standard.check(header) }
    }

    @Test func aQuarterTurnSwapsTheSizeInTheMessage() {
        let header = PhotoHeader(
            storedSize: PixelSize(width: 30_000, height: 10_000), bands: 3, bytesPerSample: 1, pages: 1,
            interlaced: false, orientationSwaps: true, iccProfileBytes: 0, loader: "jpegload"
        )
        #expect(throws: PreviewError.tooLarge(width: 10_000, height: 30_000)) { try PreviewLimits.standard.check(header) }
    }

    @Test func aHeaderWithNoPixelsIsDamaged() {
        let header = PhotoHeader(
            storedSize: PixelSize(width: 0, height: 10), bands: 3, bytesPerSample: 1, pages: 1,
            interlaced: false, orientationSwaps: false, iccProfileBytes: 0, loader: "pngload"
        )
        #expect(throws: PreviewError.damaged(detail: "the header gives a size of 0x10")) { try PreviewLimits.standard.check(header) }
    }

    @Test func decodingPastTheDeadlineIsStopped() throws {
        let file = try SampleImages.save(SampleImages.photoLike(width: 3000, height: 2000), width: 3000, height: 2000, as: "big.png", in: folder.url)
        let decoder = VipsPhotoDecoder(timeout: .milliseconds(1))
        #expect(throws: PreviewError.timedOut) {
            try decoder.decode(file, fitting: PixelSize(width: 100, height: 100))
        }
        // The same file decodes with time to spare.
        #expect((try? VipsPhotoDecoder().decode(file, fitting: PixelSize(width: 100, height: 100))) != nil)
    }
}
