import CaptureMode
import Domain
import Foundation
import Logging
import PhotoPreview
import Storage
import Synchronization
import TabShell

/// Performs `.loadPreview` and `.cancelPreview`: each preview is made by `PhotoPreviewer` off
/// the main loop (its own queues: a lookup in the disk cache, then at most one decode at a
/// time), and the answer is posted to the mailbox with a wake, as photo copies are. The loop
/// never waits for a photo: a key pressed meanwhile is answered at once.
final class PreviewLoader {
    private let previewer: PhotoPreviewer
    private let mailbox: Mailbox
    private let wake: @Sendable () -> Void
    private let logger: Logger
    /// A committed photo as a file on this host (the media folder's, or fetched from the
    /// store into this host's photo cache); called off the main thread.
    private let photoFile: @Sendable (String) throws(StorageError) -> URL
    /// Previews on their way, by ticket; touched on the main thread only.
    private var running: [Int: Task<Void, Never>] = [:]
    /// Tickets whose task has posted its answer, collected by the main thread.
    private let finished = FinishedTickets()

    private final class FinishedTickets: Sendable {
        private let tickets = Mutex<[Int]>([])
        /// Previews started and not yet ended (a decode cannot be stopped once it runs).
        private let unfinished = Atomic<Int>(0)
        func start() { unfinished.add(1, ordering: .relaxed) }
        func add(_ ticket: Int) {
            tickets.withLock { $0.append(ticket) }
            unfinished.subtract(1, ordering: .relaxed)
        }
        func takeAll() -> [Int] {
            tickets.withLock { exchange(&$0, with: []) }
        }
        var isIdle: Bool { unfinished.load(ordering: .relaxed) == 0 }
    }

    /// How long the end of a session waits for a decode already running: the process should
    /// not exit (and tear down libvips) under a decode, nor wait for a slow one.
    static let drainLimit: Duration = .milliseconds(500)

    /// `cacheDirectory` nil keeps nothing on disk (every preview is made again).
    init(
        photoFile: @escaping @Sendable (String) throws(StorageError) -> URL, cacheDirectory: URL?, mailbox: Mailbox,
        wake: @escaping @Sendable () -> Void, logger: Logger
    ) {
        self.photoFile = photoFile
        self.mailbox = mailbox
        self.wake = wake
        self.logger = logger
        previewer = PhotoPreviewer(cache: cacheDirectory.map { PreviewCache(directory: $0) })
    }

    /// Starts making the preview; its answer arrives as `.previewLoaded(request, ticket, …)`.
    /// `staging` is the folder of the capture on screen, for staged photos.
    func load(_ request: PreviewRequest, ticket: Int, staging: URL?) {
        forgetFinished()
        guard let locate = file(of: request.source, staging: staging) else {
            mailbox.post(.previewLoaded(request, ticket: ticket, .failed(PreviewError.missing.sentence)))
            wake()
            return
        }
        let previewer = self.previewer, mailbox = self.mailbox, wake = self.wake, finished = self.finished
        let logger = self.logger
        let box = request.box
        let mode = RenderMode(request.style)
        let cell = Self.cellPixels(for: request.style, box: box)
        finished.start()
        running[ticket] = Task.detached(priority: .utility) {
            let started = ContinuousClock.now
            defer {
                finished.add(ticket)
                wake()
            }
            let file: URL
            do throws(StorageError) {
                file = try locate()
            } catch {
                logger.info("no preview: \(error.message)", metadata: ["photo": "\(request.source.storedName)"])
                mailbox.post(.previewLoaded(request, ticket: ticket, .failed(error.message)))
                return
            }
            let result = await previewer.preview(of: file, box: box, mode: mode, cell: cell)
            switch result {
            case let .success(preview):
                let milliseconds = Int((ContinuousClock.now - started) / .milliseconds(1))
                logger.debug(
                    "preview ready",
                    metadata: [
                        "photo": "\(request.source.storedName)", "box": "\(request.box)", "cells": "\(preview.size)", "ms": "\(milliseconds)",
                    ])
                mailbox.post(.previewLoaded(request, ticket: ticket, .image(preview)))
            case .failure(.cancelled):
                break
            case let .failure(error):
                logger.info("no preview: \(error.sentence)", metadata: ["photo": "\(request.source.storedName)", "detail": "\(error.detail ?? "")"])
                mailbox.post(.previewLoaded(request, ticket: ticket, .failed(error.sentence)))
            }
        }
    }

    /// Stops a preview no longer wanted; one already decoding finishes, and its answer is dropped.
    func cancel(ticket: Int) {
        running.removeValue(forKey: ticket)?.cancel()
    }

    /// Cancels everything (the session ends), then waits up to `drainLimit` for a decode that
    /// had already started to end.
    func cancelAll() {
        for task in running.values { task.cancel() }
        running.removeAll()
        let deadline = ContinuousClock.now.advanced(by: Self.drainLimit)
        while !finished.isIdle, ContinuousClock.now < deadline { usleep(2_000) }
    }

    private func forgetFinished() {
        for ticket in finished.takeAll() {
            running.removeValue(forKey: ticket)
        }
    }

    /// How to find the file a source names: in the staging folder of the capture on screen, or
    /// through the store (which may fetch it). Nil for a name that is not a plain file name
    /// (never made by storage).
    private func file(of source: PhotoSource, staging: URL?) -> (@Sendable () throws(StorageError) -> URL)? {
        let name = source.storedName
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return nil }
        switch source {
        case .staged:
            guard let url = staging?.appendingPathComponent(name, isDirectory: false) else { return nil }
            return { url }
        case .stored:
            let photoFile = self.photoFile
            return { () throws(StorageError) -> URL in try photoFile(name) }
        }
    }

    /// The most pixels a kitty or iTerm2 picture is made with. chafa sends them uncompressed
    /// (RGBA, TIFF) in base64, about 5.3 bytes a pixel, and the terminal scales the picture to
    /// its cells anyway: past this a bigger picture costs bytes on the link, not sharpness
    /// anyone misses in a preview (a 1,024 × 640 picture is about 3.5 MB).
    static let scaledPictureMaximumPixels = 1024 * 640

    /// The cell size a preview is made at: the terminal's for sixel, which draws at the
    /// terminal's own pixels and must fill its cells exactly; for kitty and iTerm2, which scale
    /// the picture to its cells, that size made smaller (same shape) when the box would take
    /// more than `scaledPictureMaximumPixels`. Symbols need only the shape: `.typical`.
    static func cellPixels(for style: PreviewStyle, box: CellSize) -> CellPixels {
        guard case let .graphics(graphics, cell) = style else { return .typical }
        let pixels = Double(box.columns * cell.width) * Double(box.rows * cell.height)
        guard graphics != .sixel, pixels > Double(scaledPictureMaximumPixels) else { return cell }
        return cell.scaled(by: (Double(scaledPictureMaximumPixels) / pixels).squareRoot())
    }
}
