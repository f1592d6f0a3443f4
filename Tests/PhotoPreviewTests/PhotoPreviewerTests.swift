import Domain
import Foundation
import PhotoPreview
import TestSupport
import Testing

/// The asynchronous front: cache hits skip the decoder, failures come back as values.
@Suite struct PhotoPreviewerTests {
    let folder: TemporaryFolder
    let photo: URL
    let box = CellSize(columns: 30, rows: 10)
    let mode = RenderMode.symbols(.blocks, .palette256)

    init() throws {
        folder = try TemporaryFolder()
        photo = try SampleImages.save(SampleImages.photoLike(width: 640, height: 480), width: 640, height: 480, as: "photo.jpg", in: folder.url)
    }

    func previewer(_ decoder: CountingDecoder, cache: Bool = true) -> PhotoPreviewer {
        PhotoPreviewer(pipeline: PreviewPipeline(decoder: decoder), cache: cache ? PreviewCache(directory: folder.file("cache")) : nil)
    }

    @Test func aSecondRequestIsServedFromTheCacheWithoutDecoding() async throws {
        let decoder = CountingDecoder()
        let previewer = previewer(decoder)
        let first = try await previewer.preview(of: photo, box: box, mode: mode).get()
        #expect(decoder.decodes == 1)
        let second = try await previewer.preview(of: photo, box: box, mode: mode).get()
        #expect(second == first)
        #expect(decoder.decodes == 1)
        #expect(decoder.headers == 1)
    }

    @Test func theCacheOutlivesThePreviewer() async throws {
        let first = try await previewer(CountingDecoder()).preview(of: photo, box: box, mode: mode).get()
        let decoder = CountingDecoder()
        let again = try await previewer(decoder).preview(of: photo, box: box, mode: mode).get()
        #expect(again == first)
        #expect(decoder.decodes == 0)
    }

    @Test func anotherBoxOrModeDecodesAgain() async throws {
        let decoder = CountingDecoder()
        let previewer = previewer(decoder)
        _ = await previewer.preview(of: photo, box: box, mode: mode)
        _ = await previewer.preview(of: photo, box: CellSize(columns: 20, rows: 10), mode: mode)
        _ = await previewer.preview(of: photo, box: box, mode: .symbols(.ascii, .palette256))
        #expect(decoder.decodes == 3)
    }

    @Test func simultaneousRequestsForOnePreviewDecodeOnce() async throws {
        let decoder = CountingDecoder()
        let previewer = previewer(decoder)
        let (photo, box, mode) = (self.photo, self.box, self.mode)
        let results = await withTaskGroup(of: Result<PreviewImage, PreviewError>.self) { group in
            for _ in 0..<6 { group.addTask { await previewer.preview(of: photo, box: box, mode: mode) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 6)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(decoder.decodes == 1)
    }

    @Test func aCallersHashNamesTheCacheEntry() async throws {
        let decoder = CountingDecoder()
        let previewer = previewer(decoder)
        let hash = String(repeating: "0123456789abcdef", count: 4)
        _ = try await previewer.preview(of: photo, contentHash: hash, box: box, mode: mode).get()
        let cached = try FileManager.default.contentsOfDirectory(atPath: folder.file("cache").path)
        #expect(cached.count == 1)
        #expect(cached.first?.hasPrefix(hash) == true)
    }

    @Test func withoutAHashTheFileIsHashed() async throws {
        let previewer = previewer(CountingDecoder())
        _ = try await previewer.preview(of: photo, contentHash: "not a hash", box: box, mode: mode).get()
        let cached = try FileManager.default.contentsOfDirectory(atPath: folder.file("cache").path)
        #expect(cached.first?.hasPrefix(try ContentHash.sha256(of: photo)) == true)
    }

    @Test func withoutACacheEveryRequestDecodes() async throws {
        let decoder = CountingDecoder()
        let previewer = previewer(decoder, cache: false)
        _ = await previewer.preview(of: photo, box: box, mode: mode)
        _ = await previewer.preview(of: photo, box: box, mode: mode)
        #expect(decoder.decodes == 2)
    }

    @Test func failuresComeBackAsValues() async throws {
        let previewer = previewer(CountingDecoder())
        let missing = await previewer.preview(of: folder.file("gone.jpg"), box: box, mode: mode)
        #expect(missing.failure == .missing)
        let empty = try folder.write([], to: "empty.jpg")
        #expect(await previewer.preview(of: empty, box: box, mode: mode).failure == .empty)
    }

    @Test func aCancelledRequestDoesNotDecode() async throws {
        let decoder = CountingDecoder()
        let previewer = previewer(decoder)
        let (photo, box, mode) = (self.photo, self.box, self.mode)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await previewer.preview(of: photo, box: box, mode: mode)
        }
        #expect(await task.value.failure == .cancelled)
        #expect(decoder.decodes == 0)
    }
}
