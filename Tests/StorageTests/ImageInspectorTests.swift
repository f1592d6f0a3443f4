import CaptureMode
import Testing

@testable import Storage

@Suite("Recognising images by their first bytes")
struct ImageInspectorTests {
    static let images: [(String, [UInt8], InspectedImage)] = [
        ("PNG", TestImages.png(width: 640, height: 480), InspectedImage(format: .png, pixelWidth: 640, pixelHeight: 480)),
        ("JPEG baseline", TestImages.jpeg(width: 1024, height: 768), InspectedImage(format: .jpeg, pixelWidth: 1024, pixelHeight: 768)),
        (
            "JPEG progressive after EXIF", TestImages.jpeg(width: 4032, height: 3024, appBytes: 30_000, sofMarker: 0xC2),
            InspectedImage(format: .jpeg, pixelWidth: 4032, pixelHeight: 3024)
        ),
        ("GIF", TestImages.gif(width: 320, height: 200), InspectedImage(format: .gif, pixelWidth: 320, pixelHeight: 200)),
        ("BMP bottom-up", TestImages.bmp(width: 800, height: 600), InspectedImage(format: .bmp, pixelWidth: 800, pixelHeight: 600)),
        ("BMP top-down", TestImages.bmp(width: 800, height: -600), InspectedImage(format: .bmp, pixelWidth: 800, pixelHeight: 600)),
        ("BMP OS/2", TestImages.bmpCore(width: 64, height: 32), InspectedImage(format: .bmp, pixelWidth: 64, pixelHeight: 32)),
        ("WebP lossy", TestImages.webpLossy(width: 550, height: 368), InspectedImage(format: .webp, pixelWidth: 550, pixelHeight: 368)),
        ("WebP lossless", TestImages.webpLossless(width: 386, height: 395), InspectedImage(format: .webp, pixelWidth: 386, pixelHeight: 395)),
        ("WebP extended", TestImages.webpExtended(width: 16_383, height: 9_000), InspectedImage(format: .webp, pixelWidth: 16_383, pixelHeight: 9_000)),
        ("HEIC", TestImages.heic(sizes: [(4032, 3024)]), InspectedImage(format: .heic, pixelWidth: 4032, pixelHeight: 3024)),
        (
            "HEIC grid: the largest ispe wins", TestImages.heic(brand: "mif1", sizes: [(512, 512), (4032, 3024), (320, 240)]),
            InspectedImage(format: .heic, pixelWidth: 4032, pixelHeight: 3024)
        ),
        ("HEIC without ispe", TestImages.heic(brand: "heix", sizes: []), InspectedImage(format: .heic, pixelWidth: 0, pixelHeight: 0)),
    ]

    @Test(arguments: images)
    func recognisesEachFormatAndItsSize(name: String, bytes: [UInt8], expected: InspectedImage) {
        #expect(ImageInspector.inspect(header: bytes) == expected, "\(name)")
    }

    @Test(arguments: images)
    func aHeaderCutShortIsRefusedNeverMisread(name: String, bytes: [UInt8], expected: InspectedImage) {
        // Every prefix is either refused or read correctly; a HEIC cut before its largest ispe
        // box has the size of the largest one still in the header (0 × 0 when none is).
        var shortestRead = bytes.count
        let lengths = Array(0...min(bytes.count, 64)) + Array(stride(from: 65, through: bytes.count, by: 97)) + [bytes.count]
        for length in lengths.reversed() {
            let result = ImageInspector.inspect(header: Array(bytes.prefix(length)))
            #expect(
                result == nil || result == expected || (expected.format == .heic && result?.format == .heic),
                "\(name) cut to \(length) bytes: \(String(describing: result))")
            if result != nil { shortestRead = length }
        }
        // The sizes are near the start, except for the JPEG whose frame follows 30 KB of EXIF.
        #expect(shortestRead >= 10 && (shortestRead <= 30 || name.contains("EXIF")), "\(name): \(shortestRead)")
    }

    static let notImages: [(String, [UInt8])] = [
        ("empty", []),
        ("text", Array("hello, this is not an image\n".utf8)),
        ("PDF", Array("%PDF-1.7\n%âãÏÓ\n1 0 obj".utf8)),
        ("ZIP", [0x50, 0x4B, 0x03, 0x04] + TestImages.filler(60)),
        ("PNG signature without IHDR", Array(TestImages.png(width: 1, height: 1).prefix(8)) + TestImages.ascii("IDAT") + TestImages.filler(40)),
        ("JPEG scan before any frame", [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08] + TestImages.filler(40)),
        ("JPEG with a broken segment chain", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34] + TestImages.filler(40)),
        ("JPEG cut inside EXIF", Array(TestImages.jpeg(width: 10, height: 10, appBytes: 5_000).prefix(3_000))),
        ("GIF with a wrong version", TestImages.ascii("GIF88a") + TestImages.filler(20)),
        ("RIFF WAVE", TestImages.ascii("RIFF") + TestImages.le32(100) + TestImages.ascii("WAVEfmt ") + TestImages.filler(40)),
        ("WebP with an unknown chunk", TestImages.ascii("RIFF") + TestImages.le32(100) + TestImages.ascii("WEBPVP9 ") + TestImages.filler(40)),
        ("BMP with an unknown header size", TestImages.ascii("BM") + TestImages.filler(12) + TestImages.le32(99) + TestImages.filler(40)),
        ("BMP with a negative width", TestImages.bmp(width: -5, height: 5)),
        ("AVIF", TestImages.heic(brand: "avif", compatible: ["avif", "mif1"], sizes: [(100, 100)])),
        ("AVIF under a generic brand", TestImages.heic(brand: "mif1", compatible: ["avif", "mif1"], sizes: [(100, 100)])),
        ("MP4", TestImages.heic(brand: "isom", compatible: ["isom", "mp41"], sizes: [])),
    ]

    @Test(arguments: notImages)
    func refusesWhatIsNotAnImage(name: String, bytes: [UInt8]) {
        #expect(ImageInspector.inspect(header: bytes) == nil, "\(name)")
    }

    @Test func aJPEGWhoseFrameLiesBeyondAFullHeaderHasNoSize() {
        // Given a JPEG with 100 KB of metadata before its frame header
        let bytes = TestImages.jpeg(width: 100, height: 50, appBytes: 100_000)

        // When only the first 64 KiB are inspected, it is still a JPEG, of unknown size
        let header = Array(bytes.prefix(ImageInspector.headerLength))
        #expect(ImageInspector.inspect(header: header) == InspectedImage(format: .jpeg, pixelWidth: 0, pixelHeight: 0))
    }

    @Test func randomBytesAreNeverAnImageAndNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        var recognised = 0
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...200, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if ImageInspector.inspect(header: bytes) != nil { recognised += 1 }
        }
        #expect(recognised == 0)
    }
}
