import Domain
import Foundation

/// One photo to one `PreviewImage`, synchronously: header, limits, fit, decode, render. Runs on
/// whatever thread calls it (`PhotoPreviewer` calls it off the main loop).
public struct PreviewPipeline: Sendable {
    public var decoder: any PhotoDecoding
    public var limits: PreviewLimits

    public init(decoder: any PhotoDecoding = VipsPhotoDecoder(), limits: PreviewLimits = .standard) {
        self.decoder = decoder
        self.limits = limits
    }

    public func makePreview(of file: URL, box: CellSize, mode: RenderMode, cell: CellPixels) throws(PreviewError) -> PreviewImage {
        guard !box.isEmpty else { throw .renderFailed(detail: "the box \(box) is empty") }
        try PhotoFile.checkReadable(file)
        do throws(PreviewError) {
            let header = try decoder.readHeader(of: file)
            try limits.check(header)
            let cells = CellFit.cells(for: header.displaySize, in: box, cell: cell)
            let image = try decoder.decode(file, fitting: CellFit.decodeBox(for: cells, mode: mode, cell: cell))
            return try ChafaRenderer.render(image, into: cells, mode: mode, cell: cell)
        } catch .damaged(let detail) where FileEnding.isCutShort(file) {
            throw .truncated(detail: detail)
        }
    }
}
