import Foundation
import PhotoCodes
import PhotoPreview
import Synchronization
import TestSupport
import Testing

/// Broken and hostile files: each gives a typed error with one sentence; nothing crashes,
/// hangs or decodes what the limits refuse.
@Suite struct RefusedFileTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func failure(_ file: URL, limits: PhotoCodeLimits = .standard) -> PhotoCodeError? {
        do {
            _ = try PhotoCodeReader.codes(in: file, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    func photo(_ name: String) throws -> URL {
        var photo = Canvas.photoLike(width: 800, height: 600)
        photo.paste(Labels.ean13(ReadingCodesTests.ean), x: 100, y: 100)
        return try photo.save(as: name, in: folder.url)
    }

    @Test(arguments: ["cut.jpg", "cut.png"])
    func aTruncatedPhotoEndsEarly(name: String) throws {
        let whole = try photo(name)
        let file = try folder.write(HostileFiles.truncated(whole, keeping: 0.6), to: "short-" + name)
        let error = failure(file)
        #expect(error?.sentence == "This photo is damaged: it ends early.", "\(String(describing: error))")
        #expect(error?.detail?.isEmpty == false)
    }

    /// vips keeps one error text for the whole process, and a decode that succeeds on another
    /// thread may empty it before a failing decode reads it: the file's own ending still says
    /// "ends early".
    @Test func aTruncatedPhotoEndsEarlyWhileOtherPhotosDecode() throws {
        let whole = try photo("busy.jpg")
        let cut = try folder.write(HostileFiles.truncated(whole, keeping: 0.6), to: "short-busy.jpg")
        let rounds = 30
        let sentences = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for _ in 0..<rounds {
                if lane.isMultiple(of: 2) {
                    _ = try? PhotoCodeReader.codes(in: whole)
                } else {
                    let sentence = failure(cut)?.sentence ?? "no error"
                    sentences.withLock { $0.append(sentence) }
                }
            }
        }
        let all = sentences.withLock { $0 }
        #expect(all.count == 2 * rounds)
        #expect(all.filter { $0 != "This photo is damaged: it ends early." } == [])
    }

    @Test func corruptDataAfterAGoodHeaderIsDamage() throws {
        let whole = try photo("corrupt.png")
        var bytes = [UInt8](try Data(contentsOf: whole))
        // Keep the signature and IHDR (33 bytes), scramble the compressed pixels, keep IEND.
        var random = SplitMix64(seed: 3)
        for index in 60..<(bytes.count - 12) { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        let file = try folder.write(bytes, to: "scrambled.png")
        let error = failure(file)
        #expect(error == .photo(.damaged(detail: error?.detail ?? "")) || error == .photo(.truncated(detail: error?.detail ?? "")), "\(String(describing: error))")
        #expect(error?.sentence.hasPrefix("This photo is damaged") == true)
    }

    @Test func randomBytesAreNotAPhoto() throws {
        var random = SplitMix64(seed: 9)
        let file = try folder.write(random.bytes(1 << 20), to: "random.jpg")
        let error = failure(file)
        #expect(error?.sentence == "This file is not a photo tabshell can read codes from.", "\(String(describing: error))")
    }

    @Test func anSVGIsNotAPhoto() throws {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#
        let file = try folder.write(Array(svg.utf8), to: "drawing.svg")
        #expect(failure(file)?.sentence == "This file is not a photo tabshell can read codes from.")
    }

    @Test func aPNGClaimingFiftyThousandSquareIsRefusedFromItsHeader() throws {
        let file = try folder.write(HostileFiles.pngClaiming(width: 50_000, height: 50_000), to: "huge.png")
        let started = ContinuousClock.now
        let error = failure(file)
        print("PhotoCodes: the 50,000² PNG refused in \(ContinuousClock.now - started)")
        // Only the header can say so: decoding would have met the missing pixels and said "damaged".
        #expect(error == .photo(.tooLarge(width: 50_000, height: 50_000)))
        #expect(error?.sentence == "Too large to read codes from: 50000 × 50000 pixels.")
    }

    @Test func anImageTiledWithQRFinderPatternsTakesBoundedTime() throws {
        // zbar pairs every QR finder candidate with every other: tiled at one pixel a module
        // over 2000 × 2000 it took 5.8 s, over 3000 × 3000 56 s. The QR pass sees at most
        // 1000 × 1000, so this image (two pixels a module) reaches it at exactly one pixel a
        // module: the worst case the limits admit.
        let moduleSize = 2, tile = 8 * moduleSize, side = 2000
        var canvas = Canvas(width: side, height: side)
        for top in stride(from: 0, to: side - tile, by: tile) {
            for left in stride(from: 0, to: side - tile, by: tile) {
                for row in 0..<7 {
                    for column in 0..<7 where max(abs(row - 3), abs(column - 3)) != 2 {
                        canvas.fill(x: left + column * moduleSize, y: top + row * moduleSize, width: moduleSize, height: moduleSize, value: 0)
                    }
                }
            }
        }
        let file = try canvas.save(as: "finders.png", in: folder.url)
        let started = ContinuousClock.now
        let codes = try PhotoCodeReader.codes(in: file)
        print("PhotoCodes: 2000 × 2000 tiled with 15,376 QR finder patterns scanned in \(ContinuousClock.now - started)")
        #expect(codes.isEmpty)
    }

    @Test func theLimitsAreTheCallersToLower() throws {
        let file = try photo("small.png")
        let limits = PhotoCodeLimits(photo: PreviewLimits(maxPixels: 400_000, maxDecodeBytes: PreviewLimits.standard.maxDecodeBytes))
        #expect(failure(file, limits: limits) == .photo(.tooLarge(width: 800, height: 600)))
        #expect(failure(file) == nil)
    }

    @Test func aMissingFileAndAnEmptyFileSaySo() throws {
        #expect(failure(folder.file("nowhere.jpg")) == .photo(.missing))
        let empty = try folder.write([], to: "empty.jpg")
        #expect(failure(empty) == .photo(.empty))
        #expect(failure(folder.url)?.sentence == "The photo file cannot be read.")
    }

    @Test func everyErrorHasOneSentence() {
        let errors: [PhotoCodeError] = [
            .photo(.missing), .photo(.unreadable(detail: "x")), .photo(.empty), .photo(.unsupportedFormat(detail: "x")),
            .photo(.tooLarge(width: 1, height: 2)), .photo(.truncated(detail: "x")), .photo(.damaged(detail: "x")), .photo(.timedOut),
            .photo(.decoderUnavailable(detail: "x")), .readerUnavailable(detail: "x"),
            .photo(.libraryMissing(ImageLibraryMissing(library: .vips, detail: "x"))),
            .libraryMissing(ImageLibraryMissing(library: .zbar, detail: "x.so.0: cannot open shared object file")),
        ]
        for error in errors {
            #expect(error.sentence.hasSuffix("."))
            #expect(error.sentence.dropLast().contains(".") == false, "\(error.sentence)")
        }
    }
}
