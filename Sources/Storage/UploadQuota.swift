/// How much one person's uploads may hold (`tabshell serve` gives each visitor one, so no single
/// visitor fills the server's disk): photos and bytes, counting what is there already.
public struct UploadQuota: Equatable, Sendable {
    /// Photos the folder may hold.
    public var count: Int
    /// Bytes all its photos may hold together.
    public var bytes: Int64

    /// `serve`'s default per visitor: 20 photos, 100 MiB.
    public static let servedDefault = UploadQuota(count: 20, bytes: 100 << 20)

    public init(count: Int, bytes: Int64) {
        self.count = count
        self.bytes = bytes
    }

    /// The one sentence said when an upload would go over.
    public func sentence(count held: Int, bytes used: Int64) -> String {
        "Your uploads are full: they may hold \(count) photo\(count == 1 ? "" : "s") and \(StagingSession.megabytes(bytes)) in all, "
            + "and hold \(held) using \(StagingSession.megabytes(used)); nothing was kept (make room with: photos remove NAME)."
    }
}
