import Domain
import Foundation

/// One photo to one `PreviewImage`, synchronously: header, limits, fit, decode, render (or to
/// its pixels alone, with the same checks: `decode`). Runs on whatever thread calls it
/// (`PhotoPreviewer` calls it off the main loop).
public struct PreviewPipeline: Sendable {
    public var decoder: any PhotoDecoding
    public var limits: PreviewLimits

    public init(decoder: any PhotoDecoding = VipsPhotoDecoder(), limits: PreviewLimits = .standard) {
        self.decoder = decoder
        self.limits = limits
    }

    public func makePreview(of file: URL, box: CellSize, mode: RenderMode, cell: CellPixels) throws(PreviewError) -> PreviewImage {
        guard !box.isEmpty else { throw .renderFailed(detail: "the box \(box) is empty") }
        var cells = box
        let image = try decode(file) { header in
            cells = CellFit.cells(for: header.displaySize, in: box, cell: cell)
            return CellFit.decodeBox(for: cells, mode: mode, cell: cell)
        }
        return try ChafaRenderer.render(image, into: cells, mode: mode, cell: cell)
    }

    /// The photo decoded into the pixel box `fitting` picks from its header, after
    /// ``checkedHeader(of:)``. A file that stops before its format's end and cannot be decoded
    /// is `.truncated`.
    public func decode(_ file: URL, fitting: (PhotoHeader) -> PixelSize) throws(PreviewError) -> DecodedImage {
        do throws(PreviewError) {
            let header = try checkedHeader(of: file)
            return try decoder.decode(file, fitting: fitting(header))
        } catch .damaged(let detail) where FileEnding.isCutShort(file) {
            throw .truncated(detail: detail)
        }
    }

    /// The photo's header, after the checks every photo gets before a pixel is decoded (a
    /// preview, an agent's picture, the codes read from it, the damage check at staging): a
    /// readable regular file, a header within ``limits``.
    public func checkedHeader(of file: URL) throws(PreviewError) -> PhotoHeader {
        try Self.checkReadable(file)
        let header = try decoder.readHeader(of: file)
        try limits.check(header)
        return header
    }

    /// Checks made on the file itself before any library opens it, so the common failures get
    /// their own sentences rather than a decoder's.
    private static func checkReadable(_ file: URL) throws(PreviewError) {
        let attributes: [FileAttributeKey: Any]
        do {
            // The attributes of what a link points to: a linked photo is a photo.
            attributes = try FileManager.default.attributesOfItem(atPath: file.resolvingSymlinksInPath().path)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { throw .missing }
            throw .unreadable(detail: "\(error)")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw .unreadable(detail: "\(file.path) is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw .unreadable(detail: "no permission to read \(file.path)")
        }
        if let size = attributes[.size] as? NSNumber, size.int64Value == 0 {
            throw .empty
        }
    }
}
