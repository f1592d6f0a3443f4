import Foundation
import PhotoCodes
import TestSupport
import Testing

/// How long a phone-sized photo takes. Printed, not asserted: the numbers depend on the
/// machine and its load (docs/scanning.md keeps the measured ones). A benchmark, not a test:
/// `make bench` runs it (TABSHELL_MICRO_BENCH=1); `make test` does not.
@Suite(.serialized, .tags(.stress), .enabled(if: Benchmarks.enabled, Benchmarks.reason)) struct ScanTimeBenchmarkTests {
    @Test func twelveMegapixelPhotosWithAndWithoutACode() throws {
        let folder = try TemporaryFolder()
        var photo = Canvas.photoLike(width: 4000, height: 3000, seed: 12)
        let plain = try photo.save(as: "12mp-plain.jpg[Q=90]", in: folder.url)
        // A label a fifth of the photo wide: 113 modules of 7 px.
        photo.paste(Labels.ean13(ReadingCodesTests.ean, moduleWidth: 7, barHeight: 400), x: 1500, y: 1200)
        let labelled = try photo.save(as: "12mp-ean.jpg[Q=90]", in: folder.url)
        var noise = Canvas(width: 4000, height: 3000)
        var random = SplitMix64(seed: 5)
        noise.pixels = random.bytes(noise.pixels.count)
        let staticNoise = try noise.save(as: "12mp-noise.png", in: folder.url)

        func measure(_ name: String, _ file: URL, limits: PhotoCodeLimits = .standard, runs: Int = 2) throws -> [FoundCode] {
            let started = ContinuousClock.now
            var codes: [FoundCode] = []
            for _ in 0..<runs { codes = try PhotoCodeReader.codes(in: file, limits: limits) }
            let each = (ContinuousClock.now - started) / runs
            print(
                "PhotoCodes: \(name), scan side \(limits.scanSide), QR side \(limits.qrScanSide): \(each.formatted(.units(allowed: [.milliseconds]))) a photo, found \(codes.map(\.text))"
            )
            return codes
        }
        _ = try PhotoCodeReader.codes(in: labelled)  // warm: libvips started, the files in the page cache
        _ = try PhotoCodeReader.codes(in: plain)
        _ = try PhotoCodeReader.codes(in: staticNoise)
        let withCode = try measure("12 MP JPEG with an EAN-13", labelled)
        _ = try measure("12 MP JPEG without a code", plain)
        _ = try measure("12 MP PNG of random noise", staticNoise)
        for side in [3000, 4000] {
            let limits = PhotoCodeLimits(scanSide: side)
            _ = try measure("12 MP JPEG with an EAN-13", labelled, limits: limits, runs: 1)
            _ = try measure("12 MP JPEG without a code", plain, limits: limits, runs: 1)
        }
        #expect(withCode.map(\.text) == [ReadingCodesTests.ean])
    }
}
