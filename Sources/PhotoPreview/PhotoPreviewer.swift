import Dispatch
import Domain
import Foundation
import Synchronization

/// Makes previews off the caller's thread, on two serial queues: one for cache lookups (and
/// hashing, when the caller has no hash), so a cached preview is never stuck behind a decode;
/// one for decodes, which run one at a time, bounding memory to one photo's worth and leaving
/// a core for the main loop. A screen full of thumbnails costs two threads, not one each. A request that finds nothing in the cache looks again just before
/// decoding, so two requests for the same preview decode once.
public final class PhotoPreviewer: Sendable {
    private let pipeline: PreviewPipeline
    private let cache: PreviewCache?
    private let lookups = DispatchQueue(label: "tabshell.preview.lookup", qos: .utility)
    private let decodes = DispatchQueue(label: "tabshell.preview.decode", qos: .utility)

    /// `cache` nil keeps nothing on disk (every request decodes).
    public init(pipeline: PreviewPipeline = PreviewPipeline(), cache: PreviewCache?) {
        self.pipeline = pipeline
        self.cache = cache
    }

    /// The preview of a photo fitting `box`. `contentHash` is the SHA-256 of the file's bytes in
    /// hex if the caller has it (it is computed otherwise). Cancelling the calling task before
    /// the decode starts gives `.cancelled` without decoding.
    public func preview(
        of file: URL, contentHash: String? = nil, box: CellSize, mode: RenderMode, cell: CellPixels = .typical
    ) async -> Result<PreviewImage, PreviewError> {
        let cancelled = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lookups.async { [self] in
                    let request = Request(file: file, contentHash: contentHash, box: box, mode: mode, cell: cell, cancelled: cancelled)
                    start(request) { continuation.resume(returning: $0) }
                }
            }
        } onCancel: {
            cancelled.raise()
        }
    }

    private struct Request: Sendable {
        let file: URL
        let contentHash: String?
        let box: CellSize
        let mode: RenderMode
        let cell: CellPixels
        let cancelled: CancellationFlag
    }

    /// On the lookup queue: hash, cache, or hand over to the decode queue.
    private func start(_ request: Request, finish: @escaping @Sendable (Result<PreviewImage, PreviewError>) -> Void) {
        if request.cancelled.isRaised { return finish(.failure(.cancelled)) }
        let key: PreviewKey?
        do throws(PreviewError) {
            key = try self.key(for: request)
        } catch {
            return finish(.failure(error))
        }
        if let key, let cached = cache?.image(for: key) { return finish(.success(cached)) }
        decodes.async { [self] in
            if request.cancelled.isRaised { return finish(.failure(.cancelled)) }
            if let key, let cached = cache?.image(for: key) { return finish(.success(cached)) }
            let result: Result<PreviewImage, PreviewError>
            do throws(PreviewError) {
                result = .success(try pipeline.makePreview(of: request.file, box: request.box, mode: request.mode, cell: request.cell))
            } catch {
                result = .failure(error)
            }
            if let key, case .success(let image) = result { cache?.store(image, for: key) }
            finish(result)
        }
    }

    /// Nil without a cache (no need to hash). A caller's hash that is not SHA-256 hex is ignored
    /// and the file hashed instead.
    private func key(for request: Request) throws(PreviewError) -> PreviewKey? {
        guard cache != nil else { return nil }
        let hash: String
        if let given = request.contentHash.flatMap(ContentHash.normalized) {
            hash = given
        } else {
            hash = try ContentHash.sha256(of: request.file)
        }
        return PreviewKey(contentHash: hash, box: request.box, mode: request.mode, cell: request.cell)
    }
}

/// Set by the task's cancellation handler, read by the queued work.
private final class CancellationFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
