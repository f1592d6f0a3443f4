import Domain
import Foundation
import PhotoPreview
import TestSupport
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
            try pipeline.makePreview(of: file, box: CellSize(columns: 20, rows: 10), mode: .symbols(.blocks, .palette256), cell: .typical)
        }
        #expect(decoder.headers == 1)
        #expect(decoder.decodes == 0)
    }

    /// 60 megapixels passes the pixel limit, but an interlaced PNG is decoded whole: 480 MB of
    /// 16-bit RGBA.
    @Test func aHugeInterlacedPNGIsRefusedForItsMemory() throws {
        let file = try folder.write(HostileFiles.pngClaiming(width: 10_000, height: 6_000, deepInterlaced: true), to: "deep.png")
        let decoder = CountingDecoder()
        let header = try decoder.readHeader(of: file)
        #expect(header.interlaced && header.bands == 4 && header.bytesPerSample == 2)
        #expect(throws: PreviewError.tooLarge(width: 10_000, height: 6_000)) {
            try PreviewPipeline(decoder: decoder).makePreview(of: file, box: CellSize(columns: 20, rows: 10), mode: .symbols(.blocks, .palette256), cell: .typical)
        }
        #expect(decoder.decodes == 0)
    }

    static func header(_ loader: String, _ width: Int, _ height: Int, bands: Int = 3, bytesPerSample: Int = 1, interlaced: Bool = false) -> PhotoHeader {
        PhotoHeader(
            storedSize: PixelSize(width: width, height: height), bands: bands, bytesPerSample: bytesPerSample, pages: 1,
            interlaced: interlaced, orientationSwaps: false, iccProfileBytes: 0, loader: loader
        )
    }

    @Test func streamingDecodersCountRowsAndTheOthersTheWholeImage() {
        #expect(PreviewLimits.estimatedDecodeBytes(Self.header("pngload", 10_000, 8_000, bands: 4)) == 10_000 * 16 * 4)
        #expect(PreviewLimits.estimatedDecodeBytes(Self.header("pngload", 10_000, 8_000, bands: 4, interlaced: true)) == 320_000_000)
        #expect(PreviewLimits.estimatedDecodeBytes(Self.header("jpegload", 4_000, 3_000)) == 4_000 * 16 * 3)
        #expect(PreviewLimits.estimatedDecodeBytes(Self.header("jpegload", 4_000, 3_000, interlaced: true)) == 72_000_000)
        #expect(PreviewLimits.estimatedDecodeBytes(Self.header("gifload", 1_000, 1_000)) == 4_000_000)
        #expect(PreviewLimits.estimatedDecodeBytes(Self.header("heifload", 4_000, 3_000)) == 144_000_000)
        #expect(PreviewLimits.estimatedDecodeBytes(Self.header("pngload", Int(Int32.max), Int(Int32.max), interlaced: true)) == Int.max)
    }

    @Test func theStandardLimitsAdmitPhonePhotosAndRefuseWhatWouldNotFit() {
        let limits = PreviewLimits.standard
        #expect((try? limits.check(Self.header("jpegload", 8_000, 6_000, interlaced: true))) != nil)  // 48 MP progressive
        #expect((try? limits.check(Self.header("heifload", 6_000, 4_000))) != nil)  // 24 MP HEIC
        #expect(throws: PreviewError.tooLarge(width: 8_064, height: 6_048)) { try limits.check(Self.header("heifload", 8_064, 6_048)) }
        #expect((try? limits.check(Self.header("gifload", 8_000, 6_000))) != nil)
        // 16-bit RGBA, interlaced: 640 MB held at once.
        #expect(throws: PreviewError.tooLarge(width: 10_000, height: 8_000)) {
            try limits.check(Self.header("pngload", 10_000, 8_000, bands: 4, bytesPerSample: 2, interlaced: true))
        }
        #expect((try? limits.check(Self.header("pngload", 10_000, 8_000, bands: 4, bytesPerSample: 2))) != nil)
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
