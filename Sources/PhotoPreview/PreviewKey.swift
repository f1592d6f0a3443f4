import Domain

/// What makes two previews the same: the photo's bytes, the box, the mode and (for graphics, and
/// for the proportions of symbols) the cell's pixel size.
public struct PreviewKey: Hashable, Sendable {
    /// 64 lowercase hex digits (see `ContentHash.normalized`).
    public let contentHash: String
    public let box: CellSize
    public let mode: RenderMode
    public let cell: CellPixels

    /// Nil when `contentHash` is not a SHA-256 in hex.
    public init?(contentHash: String, box: CellSize, mode: RenderMode, cell: CellPixels) {
        guard let hash = ContentHash.normalized(contentHash) else { return nil }
        self.contentHash = hash
        self.box = box
        self.mode = mode
        self.cell = cell
    }

    /// The cache file's name: every part is digits, hex, letters or '-', so it is a safe name.
    var fileName: String {
        "\(contentHash)-\(box.columns)x\(box.rows)-\(mode.tag)-\(cell.width)x\(cell.height).v\(PreviewImageCodec.version).preview"
    }
}
